import type { ReactNode } from 'react';
import type { ViewWindow } from '@/lib/view-window';
import { PRESET_LABELS, WINDOW_PRESETS, windowDays } from '@/lib/view-window';
import { hrefWith } from '../url/href';
import { TimeZoneSwitch } from './time-zone-switch';
import { WindowPicker } from './window-picker';
import styles from './view-bar.module.css';

/** The window and time zone, the same control on every page; `children` are the page's filters. */
export function ViewBar({
  path,
  query,
  window,
  children,
}: {
  path: string;
  /** The page's parameters as the URL gave them. */
  query: Record<string, string>;
  window: ViewWindow;
  children?: ReactNode;
}) {
  const keep = Object.fromEntries(
    Object.entries(query).filter(([k]) => !['window', 'from', 'to', 'cursor'].includes(k)),
  );
  return (
    <section className={styles.bar} aria-label="View">
      <WindowPicker
        choice={window.choice}
        presets={WINDOW_PRESETS.map((p) => ({
          value: p,
          label: PRESET_LABELS[p],
          href: hrefWith(path, query, { window: p, from: null, to: null }),
        }))}
        action={path}
        keep={keep}
        days={windowDays(window)}
        timeZoneLabel={window.timeZone}
      />
      <TimeZoneSwitch timeZone={window.timeZone} />
      {children}
    </section>
  );
}

'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { TIME_ZONE_COOKIE } from '@/lib/view-window';
import { hrefWith } from '../url/href';
import styles from './view-bar.module.css';

const YEAR_S = 365 * 24 * 3600;

/** UTC or the reader's own zone: written into the URL (so a link says which) and remembered. */
export function TimeZoneSwitch({ timeZone }: { timeZone: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const choose = (zone: string) => {
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=${YEAR_S}; samesite=strict`;
    router.push(hrefWith(pathname, new URLSearchParams(search.toString()), { tz: zone }), {
      scroll: false,
    });
  };
  const local = timeZone !== 'UTC';
  return (
    <div className={styles.zone}>
      <span id="time-zone-label" className="muted">
        Times
      </span>
      <div className={styles.segmented} role="group" aria-labelledby="time-zone-label">
        <button
          type="button"
          className={styles.segment}
          aria-pressed={!local}
          onClick={() => choose('UTC')}
        >
          UTC
        </button>
        <button
          type="button"
          className={styles.segment}
          aria-pressed={local}
          title={local ? timeZone : 'Show times in this browser’s time zone'}
          onClick={() => choose(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC')}
        >
          Local{local ? ` · ${timeZone}` : ''}
        </button>
      </div>
    </div>
  );
}

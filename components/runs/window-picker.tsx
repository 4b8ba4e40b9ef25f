import Form from 'next/form';
import Link from 'next/link';
import type { TimeWindow } from '@/lib/filters';
import styles from './filters.module.css';

const PRESETS = [
  { value: '24h', label: '24 h' },
  { value: '7d', label: '7 d' },
  { value: '30d', label: '30 d' },
] as const;

/** The time window: three presets as links, and a custom range (a GET form, so it is a URL too). */
export function WindowPicker({
  choice,
  window,
  hrefFor,
  keep,
}: {
  choice: string;
  window: TimeWindow;
  hrefFor: (preset: string) => string;
  /** Parameters the custom form carries over (project, agent, variant, filters, sort). */
  keep: Record<string, string>;
}) {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const lastDay = new Date(window.to.getTime() - 1);
  return (
    <div className={styles.segmented} role="group" aria-label="Time window">
      {PRESETS.map((p) => (
        <Link
          key={p.value}
          className={styles.segment}
          href={hrefFor(p.value)}
          aria-current={choice === p.value ? 'true' : undefined}
        >
          {p.label}
        </Link>
      ))}
      <details className={styles.custom}>
        <summary className={styles.segment} aria-current={choice === 'custom' ? 'true' : undefined}>
          Custom…
        </summary>
        <Form action="/" className={styles.customForm}>
          {Object.entries(keep).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="window" value="custom" />
          <label className={styles.field}>
            From <input type="date" name="from" defaultValue={day(window.from)} required />
          </label>
          <label className={styles.field}>
            To <input type="date" name="to" defaultValue={day(lastDay)} required />
          </label>
          <button className="button" type="submit">
            Show this range
          </button>
        </Form>
      </details>
    </div>
  );
}

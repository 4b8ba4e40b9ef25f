import Link from 'next/link';
import type { DeriveFailureRecord } from '@/lib/api-types';
import { formatCount, formatDateTime } from '../format';
import styles from './callout.module.css';

/**
 * Runs Loopscope could not derive: their spans are kept and they are tried again (with backoff,
 * and at every start), while every other run is shown as usual.
 */
export function QuarantineCallout({
  total,
  runs,
  runHref,
  timeZone = 'UTC',
}: {
  total: number;
  runs: DeriveFailureRecord[];
  timeZone?: string;
  /** Links each run; without it (on the run's own page) the id is plain text. */
  runHref?: (runId: string) => string;
}) {
  if (total === 0) return null;
  return (
    <div className={`${styles.callout} ${styles.danger}`} role="note">
      <p>
        <strong>
          {formatCount(total)} {total === 1 ? 'run' : 'runs'} could not be derived.
        </strong>{' '}
        {total === 1 ? 'Its' : 'Their'} spans are kept; Loopscope tries again later and at every
        start. Everything else on this page is up to date.
      </p>
      <ul>
        {runs.map((r) => (
          <li key={r.runId}>
            {runHref ? <Link href={runHref(r.runId)}>{r.runId}</Link> : <code>{r.runId}</code>}:{' '}
            <code>{r.error}</code> ({r.attempts} {r.attempts === 1 ? 'attempt' : 'attempts'}; next{' '}
            <time dateTime={r.retryAt}>
              {formatDateTime(r.retryAt, timeZone)} {timeZone}
            </time>
            )
          </li>
        ))}
      </ul>
    </div>
  );
}

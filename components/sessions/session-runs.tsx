import Link from 'next/link';
import type { RunSummary } from '@/lib/api-types';
import { formatDateTime, formatUsd } from '../format';
import { ExitBadge } from '../runs/exit-badge';
import { VerificationMark } from '../runs/signal-badges';
import styles from './sessions.module.css';

/** A session's runs in start order: what each set out to do, how it ended, what it cost. */
export function SessionRuns({
  runs,
  runHref,
  timeZone,
}: {
  runs: RunSummary[];
  runHref: (id: string) => string;
  timeZone: string;
}) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} aria-label="Runs of the session">
        <thead>
          <tr>
            <th scope="col" className={styles.num}>
              #
            </th>
            <th scope="col">Run</th>
            <th scope="col">Exit</th>
            <th scope="col">Verification</th>
            <th scope="col" className={styles.num}>
              Spend
            </th>
            <th scope="col">Started ({timeZone})</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run, k) => (
            <tr key={run.id}>
              <td className={styles.num}>{k + 1}</td>
              <td className={styles.goal}>
                <Link href={runHref(run.id)}>{run.goal ?? run.id}</Link>
              </td>
              <td>
                <ExitBadge
                  category={run.exitCategory}
                  reason={run.exitReason}
                  kind={run.exitKind}
                />
              </td>
              <td>
                <VerificationMark run={run} />
              </td>
              <td className={styles.num}>{formatUsd(run.costUsd)}</td>
              <td>
                <time dateTime={run.startedAt}>{formatDateTime(run.startedAt, timeZone)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import type { RunDetail } from '@/lib/api-types';
import { formatCount } from '../format';
import styles from './run-header.module.css';

/** Values the run's spans sent that Loopscope stored as unknown (or adjusted), and why. */
export function ValueProblems({ problems }: { problems: RunDetail['valueProblems'] }) {
  if (problems.count === 0) return null;
  const rest = problems.count - problems.first.length;
  return (
    <details className={`notice ${styles.alert}`} role="note">
      <summary>
        {formatCount(problems.count)} {problems.count === 1 ? 'value' : 'values'} in this run&apos;s
        spans could not be used as sent: totals leave {problems.count === 1 ? 'it' : 'them'} out.
      </summary>
      <ul className={styles.problems}>
        {problems.first.map((p, k) => (
          <li key={k}>
            <code>{p.key}</code> = <code>{p.value}</code> on span <q>{p.spanName}</q> (
            <code>{p.spanId}</code>): {p.problem}
          </li>
        ))}
        {rest > 0 ? <li>and {formatCount(rest)} more</li> : null}
      </ul>
    </details>
  );
}

import Link from 'next/link';
import { formatCount } from '../format';
import styles from './callout.module.css';

/**
 * Traces that hold a single LLM or tool call and nothing of a run: the instrumentation makes
 * every call its own trace, so they cannot be grouped into runs. Say so, and how to fix it.
 */
export function FragmentCallout({ traces, href }: { traces: number; href: string | null }) {
  if (traces === 0) return null;
  return (
    <p className={styles.callout} role="note">
      <strong>
        {formatCount(traces)} {traces === 1 ? 'trace holds' : 'traces hold'} a single LLM or tool
        call and no run.
      </strong>{' '}
      Each call arrived as its own trace, so they cannot be grouped into runs. That is most often
      missing context propagation: the calls are made outside the span of the loop that made them
      (no enclosing span is active, or the context is lost across an async boundary or a process).
      Wrap the loop in one span and make the calls inside it, or set <code>loop.run.id</code> on
      every call. {href ? <Link href={href}>Show {traces === 1 ? 'it' : 'them'}</Link> : null}
    </p>
  );
}

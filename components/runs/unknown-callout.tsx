import Link from 'next/link';
import { formatCount } from '../format';
import { colorVar } from './exit-badge';
import styles from './callout.module.css';

/** Runs that ended without naming why are a gap in the harness's instrumentation, not a verdict. */
export function UnknownCallout({ runs, href }: { runs: number; href: string | null }) {
  if (runs === 0) return null;
  return (
    <p className={styles.callout} style={colorVar('unknown')} role="note">
      <strong>
        {formatCount(runs)} {runs === 1 ? 'run' : 'runs'} did not name why{' '}
        {runs === 1 ? 'it' : 'they'} stopped.
      </strong>{' '}
      That is an instrumentation gap: set <code>loop.exit.reason</code> on the run&apos;s root span
      on every way out of the loop.{' '}
      {href ? <Link href={href}>Show {runs === 1 ? 'it' : 'them'}</Link> : null}
    </p>
  );
}

import Link from 'next/link';
import type { LoopPatternJson } from '@/lib/api-types';
import { listedLabels, PATTERN_KIND_LABEL } from '@/trajectory/pattern-kinds';
import { formatCount, formatUsd } from '../format';
import styles from './patterns.module.css';

/** The costliest loops of the window, under the home page's tiles, and the way to all of them. */
export function TopPatterns({
  patterns,
  hrefFor,
  allHref,
}: {
  patterns: readonly LoopPatternJson[];
  hrefFor: (signature: string) => string;
  allHref: string;
}) {
  const labels = listedLabels(patterns);
  return (
    <section className={styles.top} aria-label="Costliest loops">
      <h2 className={styles.topTitle}>Costliest loops</h2>
      {patterns.length === 0 ? (
        <p className="muted">No loop signal in this window.</p>
      ) : (
        <ol className={styles.topList}>
          {patterns.map((p, k) => (
            <li key={`${p.signature} ${p.agent}`}>
              <Link className={styles.label} href={hrefFor(p.signature)}>
                {labels[k]}
              </Link>{' '}
              <span className="muted">
                {PATTERN_KIND_LABEL[p.kind]} · {p.agent ?? '—'} · {formatCount(p.runs)} run
                {p.runs === 1 ? '' : 's'} · {formatUsd(p.wastedUsd)} wasted
              </span>
            </li>
          ))}
        </ol>
      )}
      <Link href={allHref}>All loop patterns →</Link>
    </section>
  );
}

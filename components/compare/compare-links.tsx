import Link from 'next/link';
import styles from './compare.module.css';

/** On a run's page: compare it with the last good run, or with any run by id. */
export function CompareLinks({
  runId,
  baseline,
  view,
  patternsHref,
}: {
  runId: string;
  /** The latest earlier verified run of the same agent and goal, with its link; or none. */
  baseline: { id: string; href: string } | null;
  /** The view parameters (project, window, zone) the comparison keeps. */
  view: Record<string, string>;
  /** The loop patterns page for this run's agent and first loop's kind, when it looped. */
  patternsHref: string | null;
}) {
  return (
    <nav className={styles.compareLinks} aria-label="Compare">
      {baseline ? (
        <Link href={baseline.href} title={`Run ${baseline.id}`}>
          Compare with the last good run
        </Link>
      ) : (
        <span className="muted">
          No earlier verified run of this agent and goal to compare with
        </span>
      )}
      {patternsHref ? <Link href={patternsHref}>The same loop in other runs</Link> : null}
      <form action="/runs/compare" method="get" className={styles.compareForm}>
        <input type="hidden" name="a" value={runId} />
        {Object.entries(view).map(([key, value]) => (
          <input key={key} type="hidden" name={key} value={value} />
        ))}
        <label>
          Compare with…{' '}
          <input name="b" required placeholder="run id" autoComplete="off" spellCheck={false} />
        </label>
        <button type="submit">Compare</button>
      </form>
    </nav>
  );
}

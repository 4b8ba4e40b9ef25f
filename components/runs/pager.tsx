import Link from 'next/link';
import styles from './pager.module.css';

/** Keyset pages go forward only: the next page, or back to the first. */
export function Pager({
  shown,
  firstHref,
  nextHref,
}: {
  shown: number;
  firstHref: string | null;
  nextHref: string | null;
}) {
  return (
    <nav className={styles.pager} aria-label="Pages of runs">
      {/* None shown: the page above says so once. */}
      <span className="muted">
        {shown === 0 ? '' : `${shown} runs on this page`}
        {shown > 0 && firstHref ? ' (not the first page)' : ''}
      </span>
      <span className={styles.links}>
        {firstHref ? (
          <Link className="button" href={firstHref}>
            ← First page
          </Link>
        ) : null}
        {nextHref ? (
          <Link className="button" href={nextHref}>
            Next page →
          </Link>
        ) : null}
      </span>
    </nav>
  );
}

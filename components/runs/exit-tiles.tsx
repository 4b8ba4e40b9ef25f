import Link from 'next/link';
import type { ExitReasonGroup } from '@/lib/api-types';
import { EXIT_CATEGORY_META } from '@/trajectory/exit-categories';
import type { ExitCategory } from '@/trajectory/exit-categories';
import { formatCount, formatShare, formatUsd } from '../format';
import { colorVar } from './exit-badge';
import styles from './tiles.module.css';

/** One tile per exit category of the window: count, share and spend. A tile is a link that
 * filters the runs below by its category (and back again when it is the one selected). */
export function ExitTiles({
  groups,
  selected,
  hrefFor,
  note = null,
}: {
  groups: ExitReasonGroup[];
  selected: ExitCategory | undefined;
  hrefFor: (category: ExitCategory | null) => string;
  /** The filter the counts answer for, beyond the window, agent and variant. */
  note?: string | null;
}) {
  const shown =
    selected && !groups.some((g) => g.exitCategory === selected)
      ? [...groups, { exitCategory: selected, runs: 0, costUsd: 0, share: 0 }]
      : groups;
  if (shown.length === 0) {
    return (
      <p className={styles.empty}>
        {note ? `No runs match ${note} in this window.` : 'No runs started in this window.'}
      </p>
    );
  }
  return (
    <ul
      className={styles.tiles}
      aria-label={note ? `Runs by exit category, ${note}` : 'Runs by exit category'}
    >
      {shown.map((g) => {
        const meta = EXIT_CATEGORY_META[g.exitCategory];
        const isSelected = g.exitCategory === selected;
        const runs = `${formatCount(g.runs)} ${g.runs === 1 ? 'run' : 'runs'}`;
        return (
          <li key={g.exitCategory}>
            <Link
              className={styles.tile}
              style={colorVar(g.exitCategory)}
              href={hrefFor(isSelected ? null : g.exitCategory)}
              aria-current={isSelected ? 'true' : undefined}
              aria-label={`${meta.label}: ${runs}, ${formatShare(g.share)}, ${formatUsd(g.costUsd)}`}
              title={`${meta.description}${isSelected ? ' (click again to show every category)' : ''}`}
            >
              <span className={styles.label}>{meta.label}</span>
              <span className={styles.count}>{formatCount(g.runs)}</span>
              <span className={styles.meta}>
                {formatShare(g.share)} of runs · {formatUsd(g.costUsd)}
              </span>
              {g.exitCategory === 'unknown' ? (
                <span className={styles.note}>did not name why it stopped</span>
              ) : null}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

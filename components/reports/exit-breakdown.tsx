import { categoryColor } from '../theme/category-vars';
import { EXIT_CATEGORY_META } from '@/trajectory/exit-categories';
import type { ExitCategory } from '@/trajectory/exit-categories';
import { formatCount, formatShare } from '../format';
import styles from './reports.module.css';

/** How a variant's runs ended: one stacked bar in the category colours, and the counts. */
export function ExitBreakdown({
  exits,
  label,
}: {
  exits: { exitCategory: ExitCategory; runs: number }[];
  label: string;
}) {
  const total = exits.reduce((sum, e) => sum + e.runs, 0);
  if (total === 0) return <p className="muted">No runs.</p>;
  return (
    <div style={{ display: 'grid', gap: 8 }}>
      <div className={styles.exitBar} aria-hidden="true">
        {exits.map((e) => (
          <span
            key={e.exitCategory}
            title={`${EXIT_CATEGORY_META[e.exitCategory].label}: ${e.runs}`}
            style={{
              width: `${(e.runs / total) * 100}%`,
              background: categoryColor(e.exitCategory),
            }}
          />
        ))}
      </div>
      <ul className={styles.exitList} aria-label={label}>
        {exits.map((e) => (
          <li key={e.exitCategory}>
            <span
              className={styles.swatch}
              style={{ background: categoryColor(e.exitCategory) }}
              aria-hidden="true"
            />
            <span>{EXIT_CATEGORY_META[e.exitCategory].label}</span>
            <span className={styles.num}>{formatCount(e.runs)}</span>
            <span className="muted">{formatShare(e.runs / total)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

import type { CSSProperties } from 'react';
import { EXIT_CATEGORY_META } from '@/trajectory/exit-categories';
import type { ExitCategory } from '@/trajectory/exit-categories';
import { categoryColor } from '../theme/category-vars';
import styles from './badges.module.css';

export const UNKNOWN_EXIT_NOTE = 'Did not name why it stopped: an instrumentation gap';

/** `--c` set to the category's colour, for any element styled with it. */
export function colorVar(category: ExitCategory): CSSProperties {
  return { '--c': categoryColor(category) } as CSSProperties;
}

export function exitTitle(category: ExitCategory, reason: string | null): string {
  if (category === 'unknown') return UNKNOWN_EXIT_NOTE;
  return reason ? `Raw reason: ${reason}` : EXIT_CATEGORY_META[category].description;
}

/** The exit category in its colour; the raw reason on hover. */
export function ExitBadge({
  category,
  reason = null,
  kind = null,
}: {
  category: ExitCategory;
  reason?: string | null;
  kind?: string | null;
}) {
  return (
    <span className={styles.exit} style={colorVar(category)} title={exitTitle(category, reason)}>
      <span className={styles.swatch} aria-hidden="true" />
      {EXIT_CATEGORY_META[category].label}
      {kind ? <span className={styles.kind}>· {kind}</span> : null}
    </span>
  );
}

import Link from 'next/link';
import type { RunFlag } from '@/lib/filters';
import { EXIT_CATEGORY_META } from '@/trajectory/exit-categories';
import type { ExitCategory } from '@/trajectory/exit-categories';
import { BADGE_LABELS } from './signal-badges';
import styles from './filters.module.css';

const FLAG_LABELS: Record<RunFlag, string> = {
  ...BADGE_LABELS,
  unexplainedStop: 'unexplained stop',
  fragment: 'single-call traces',
};

/** The filters set by tiles and badges as one phrase, for captions: "Exit: No progress · Signal:
 * A/B/A", or null without any. */
export function filterText(exitCategory: ExitCategory | undefined, flag: RunFlag | undefined) {
  const parts = [
    exitCategory ? `Exit: ${EXIT_CATEGORY_META[exitCategory].label}` : null,
    flag ? `Signal: ${FLAG_LABELS[flag]}` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** The filters set by tiles and badges, each removable; "Clear" keeps only window and project. */
export function ActiveFilters({
  exitCategory,
  flag,
  removeHref,
  clearHref,
}: {
  exitCategory: ExitCategory | undefined;
  flag: RunFlag | undefined;
  removeHref: (param: 'exitCategory' | 'flag') => string;
  clearHref: string;
}) {
  const chips: { param: 'exitCategory' | 'flag'; text: string }[] = [];
  if (exitCategory) {
    chips.push({ param: 'exitCategory', text: `Exit: ${EXIT_CATEGORY_META[exitCategory].label}` });
  }
  if (flag) chips.push({ param: 'flag', text: `Signal: ${FLAG_LABELS[flag]}` });
  return (
    <div className={styles.chips} aria-label="Active filters">
      {chips.map((c) => (
        <span key={c.param} className={styles.chip}>
          {c.text}
          <Link href={removeHref(c.param)} aria-label={`Remove filter ${c.text}`}>
            ×
          </Link>
        </span>
      ))}
      {chips.length > 1 ? <Link href={clearHref}>Clear filters</Link> : null}
    </div>
  );
}

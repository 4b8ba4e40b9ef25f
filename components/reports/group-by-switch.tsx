import Link from 'next/link';
import type { GroupDimension } from './labels';
import styles from './reports.module.css';

const CHOICES: { value: GroupDimension; label: string }[] = [
  { value: 'agent', label: 'Agent' },
  { value: 'variant', label: 'Variant' },
  { value: 'model', label: 'Model' },
];

/** Grouping as links: switching is a new URL, shareable like every view. */
export function GroupBySwitch({
  current,
  hrefFor,
}: {
  current: GroupDimension;
  hrefFor: Record<GroupDimension, string>;
}) {
  return (
    <div className={styles.field}>
      <span id="group-by-label">Group by</span>
      <div className={styles.segmented} role="group" aria-labelledby="group-by-label">
        {CHOICES.map((c) => (
          <Link
            key={c.value}
            className={styles.segment}
            href={hrefFor[c.value]}
            aria-current={c.value === current ? 'true' : undefined}
          >
            {c.label}
          </Link>
        ))}
      </div>
    </div>
  );
}

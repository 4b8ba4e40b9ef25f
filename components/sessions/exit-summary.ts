import { EXIT_CATEGORY_META } from '@/trajectory/exit-categories';
import type { ExitCategory } from '@/trajectory/exit-categories';

/** A session's exits as a reader says them: "2 goal satisfied · 1 no progress", most first. */
export function exitSummary(exitCategories: Record<string, number>): string {
  return Object.entries(exitCategories)
    .sort(([a, n], [b, m]) => m - n || a.localeCompare(b))
    .map(([category, n]) => {
      const meta = EXIT_CATEGORY_META[category as ExitCategory] as { label: string } | undefined;
      return `${n} ${(meta?.label ?? category).toLowerCase()}`;
    })
    .join(' · ');
}

import type { RunSummary } from '@/lib/api-types';
import { SIGNAL_BADGES } from './signal-badges';

// The table's text is 13 px; a character of it is about 7.2 px wide, a badge's (12 px) about 6.6.
const CHAR_PX = 7.2;
const BADGE_CHAR_PX = 6.6;
const CELL_PADDING_PX = 24;
const BADGE_PADDING_PX = 22;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The widths of the columns whose content varies most from page to page (agent, variant, loop
 * signals), sized to this page's runs within bounds: what one page does not use goes to the run's
 * goal, and a long agent name is not cut while the signals column stands half empty.
 */
export function contentWidths(runs: readonly RunSummary[]): Record<string, number> {
  const longest = (header: string, values: (string | null)[]) =>
    Math.max(header.length, ...values.map((v) => (v ?? '—').length));
  const badgesPx = (run: RunSummary) =>
    SIGNAL_BADGES.filter((b) => b.describe(run.flags) !== null).reduce(
      (sum, b) => sum + b.label.length * BADGE_CHAR_PX + BADGE_PADDING_PX + 4,
      0,
    );
  const textWidth = (header: string, values: (string | null)[]) =>
    longest(header, values) * CHAR_PX + CELL_PADDING_PX;
  return {
    agent: clamp(
      textWidth(
        'Agent',
        runs.map((r) => r.agent),
      ),
      72,
      200,
    ),
    variant: clamp(
      textWidth(
        'Variant',
        runs.map((r) => r.variant),
      ),
      72,
      150,
    ),
    signals: clamp(
      Math.max('Loop signals'.length * CHAR_PX, ...runs.map(badgesPx)) + CELL_PADDING_PX,
      96,
      220,
    ),
  };
}

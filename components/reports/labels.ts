import { formatUsd, isNoChangeUsd } from '../format';

export { groupLabel } from '@/trajectory/report-weekly';
export type GroupDimension = 'agent' | 'variant' | 'model';

/** Cost per verified unit, or an em dash when nothing was verified (never a division by zero). */
export function formatRatio(value: number | null): string {
  return value === null ? '—' : formatUsd(value);
}

export function formatPercent(value: number | null, digits = 0): string {
  return value === null ? '—' : `${(value * 100).toFixed(digits)}%`;
}

/** A signed change in dollars and percent; cost going up is worse. */
export function describeChange(change: { absolute: number; relative: number | null }): {
  text: string;
  direction: 'better' | 'worse' | 'same';
} {
  // Float noise (+$0.00000003) is no change, whatever its sign.
  if (isNoChangeUsd(change.absolute)) return { text: 'no change', direction: 'same' };
  const sign = change.absolute > 0 ? '+' : change.absolute < 0 ? '−' : '±';
  const dollars = `${sign}${formatUsd(Math.abs(change.absolute))}`;
  const percent =
    change.relative === null ? '' : ` (${sign}${Math.abs(change.relative * 100).toFixed(0)}%)`;
  const direction = change.absolute > 0 ? 'worse' : 'better';
  const arrow = direction === 'worse' ? '▲ ' : '▼ ';
  return { text: `${arrow}${dollars}${percent}`, direction };
}

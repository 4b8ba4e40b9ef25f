// The report's arithmetic: cost per verified unit (docs/conventions.md), pass rate, percentiles,
// week-over-week change and histogram bins. Every ratio with nothing to divide by is null, never
// a division by zero and never a silent 0.

/** Total spend of a set of runs, failures included, over the units its verified runs confirmed. */
export function costPerVerifiedUnit(costUsd: number, verifiedUnits: number): number | null {
  return verifiedUnits > 0 && Number.isFinite(costUsd) ? costUsd / verifiedUnits : null;
}

/** Verified runs over runs. */
export function passRate(verifiedRuns: number, runs: number): number | null {
  return runs > 0 ? verifiedRuns / runs : null;
}

/**
 * The p-quantile (0 ≤ p ≤ 1) with linear interpolation between the closest ranks: the same
 * value as Postgres `percentile_cont(p) within group (order by x)`.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0 || !(p >= 0 && p <= 1)) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * p;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] as number;
  const high = sorted[upper] as number;
  return low + (high - low) * (position - lower);
}

export interface Change {
  absolute: number;
  /** Relative to the previous value; null when the previous value was 0. */
  relative: number | null;
}

/** Current minus previous; null when either side has no value. */
export function change(current: number | null, previous: number | null): Change | null {
  if (current === null || previous === null) return null;
  const absolute = current - previous;
  return { absolute, relative: previous === 0 ? null : absolute / previous };
}

export interface HistogramLayout {
  /** Lower edge of the first bin. */
  lo: number;
  /** Upper edge of the last bin (the maximum falls in the last bin). */
  hi: number;
  bins: number;
  width: number;
}

/**
 * Equal-width bins from 0 (or from 0.5 for whole numbers) up to a round number at or above max,
 * so two distributions binned with one layout can be compared bar for bar.
 */
export function histogramLayout(
  max: number,
  options: { integer?: boolean; maxBins?: number } = {},
): HistogramLayout {
  const maxBins = options.maxBins ?? 20;
  if (options.integer) {
    // Whole numbers: one bin per value while that fits, else a whole-number width.
    const top = Math.max(1, Math.ceil(max));
    const width = Math.max(1, Math.ceil(top / maxBins));
    const bins = Math.ceil(top / width);
    return { lo: 0.5, hi: 0.5 + bins * width, bins, width };
  }
  if (!(max > 0) || !Number.isFinite(max)) return { lo: 0, hi: 1, bins: 1, width: 1 };
  const width = niceStep(max / maxBins);
  const bins = Math.max(1, Math.ceil(max / width - 1e-9));
  return { lo: 0, hi: bins * width, bins, width };
}

/** The bin (0-based) a value falls in; values outside the layout go to the first or last bin. */
export function binOf(layout: HistogramLayout, value: number): number {
  const k = Math.floor((value - layout.lo) / layout.width);
  return Math.min(layout.bins - 1, Math.max(0, k));
}

/** Counts per bin. */
export function histogram(layout: HistogramLayout, values: readonly number[]): number[] {
  const counts = new Array<number>(layout.bins).fill(0);
  for (const value of values) counts[binOf(layout, value)]! += 1;
  return counts;
}

/** 1, 2, 2.5 or 5 times a power of ten, at or above the given step. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 2.5, 5, 10]) {
    // Round away float noise (0.1 * 3) so the edges print cleanly.
    const step = Number((factor * power).toPrecision(12));
    if (step >= raw * (1 - 1e-12)) return step;
  }
  return 10 * power;
}

// The colours of named series (agents, variants, models). A page colours a group by its place
// among all the names of its dimension in the window (in name order), so every page of the same
// window gives the same group the same colour, and the first groups get the hues farthest apart.
// Past ten names the hues come again with a dash pattern; runs that name no group are slate.
// The CSS variables come from SeriesVars.
export const SERIES_COLORS = [
  { light: '#2563eb', dark: '#60a5fa' }, // blue
  { light: '#ea580c', dark: '#fb923c' }, // orange
  { light: '#16a34a', dark: '#4ade80' }, // green
  { light: '#9333ea', dark: '#c084fc' }, // purple
  { light: '#a16207', dark: '#facc15' }, // gold
  { light: '#0891b2', dark: '#22d3ee' }, // cyan
  { light: '#db2777', dark: '#f472b6' }, // pink
  { light: '#7c2d12', dark: '#9a6b4a' }, // brown (not tan: tan and orange read alike on dark)
  { light: '#dc2626', dark: '#f87171' }, // red
  { light: '#4d7c0f', dark: '#a3e635' }, // olive
] as const;
/** Runs that name no agent, variant or model. */
export const NO_GROUP_COLOR = { light: '#64748b', dark: '#94a3b8' } as const;

export const DASHES = [undefined, '7 4', '2 3', '10 3 2 3'] as const;

export interface SeriesStyle {
  /** The place of the group among the named ones (-1 for none). */
  slot: number;
  color: string;
  dash: string | undefined;
}

export function styleOfSlot(slot: number): SeriesStyle {
  if (slot < 0) return { slot, color: 'var(--series-none)', dash: '4 3' };
  return {
    slot,
    color: `var(--series-${slot % SERIES_COLORS.length})`,
    dash: DASHES[Math.floor(slot / SERIES_COLORS.length) % DASHES.length],
  };
}

/** A style for every name of the dimension: give every page of the window the same `domain`
 * (all its agents, variants or models) and a group looks the same on each. */
export function assignSeriesStyles(
  domain: readonly (string | null)[],
): Map<string | null, SeriesStyle> {
  const names = [...new Set(domain.filter((d): d is string => d !== null))].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const out = new Map<string | null, SeriesStyle>(names.map((n, k) => [n, styleOfSlot(k)]));
  out.set(null, styleOfSlot(-1));
  return out;
}

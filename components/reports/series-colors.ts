/** The k-th series colour (CSS variables set by .chart in reports.module.css), and a dash
 * pattern once the eight colours repeat, so no two series look alike. */
export function seriesStroke(k: number): { stroke: string; strokeDasharray?: string } {
  const dash = Math.floor(k / 8) % 3;
  return {
    stroke: `var(--series-${k % 8})`,
    strokeDasharray: dash === 0 ? undefined : dash === 1 ? '6 3' : '2 3',
  };
}

'use client';

import { useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { binOf } from '@/trajectory/report-metrics';
import type { HistogramLayout } from '@/trajectory/report-metrics';
import styles from './reports.module.css';
import { TOOLTIP_BOX } from './chart-style';

const axisTick = { fill: 'var(--axis)', fontSize: 11 };

/** The label of bin k: a dollar range, or a step count (range) for whole numbers. */
export function binLabel(layout: HistogramLayout, k: number, unit: 'usd' | 'steps'): string {
  const low = layout.lo + k * layout.width;
  if (unit === 'steps') {
    const first = Math.ceil(low);
    const last = Math.ceil(low + layout.width) - 1;
    return first === last ? String(first) : `${first}–${last}`;
  }
  // As many decimals as the bin width has: $0.10–0.15, $0.075–0.100, $2–4.
  const decimals = (String(Number(layout.width.toPrecision(6))).split('.')[1] ?? '').length;
  const edge = (v: number) => v.toFixed(decimals);
  return `$${edge(low)}–${edge(low + layout.width)}`;
}

/**
 * Runs per bin for one variant, with its p50 and p95 marked, on the layout and count axis both
 * variants share, so the two charts compare bar for bar and the tail shows at its true height.
 */
export function HistogramChart({
  title,
  counts,
  layout,
  unit,
  p50,
  p95,
  maxCount,
  color,
}: {
  title: string;
  counts: number[];
  layout: HistogramLayout;
  unit: 'usd' | 'steps';
  p50: number | null;
  p95: number | null;
  maxCount: number;
  color: string;
}) {
  const data = useMemo(
    () => counts.map((runs, k) => ({ bin: binLabel(layout, k, unit), runs })),
    [counts, layout, unit],
  );
  const marker = (value: number | null) =>
    value === null ? null : (data[binOf(layout, value)]?.bin ?? null);
  const p50Bin = marker(p50);
  const p95Bin = marker(p95);
  return (
    <figure className={styles.chart} style={{ margin: 0 }}>
      <figcaption className="muted" style={{ fontSize: 12.5 }}>
        {title}
      </figcaption>
      <BarChart
        data={data}
        responsive
        style={{ width: '100%', height: 180 }}
        margin={{ top: 18, right: 12, bottom: 0, left: 0 }}
        barCategoryGap={1}
      >
        <CartesianGrid stroke="var(--grid)" vertical={false} />
        <XAxis dataKey="bin" tick={axisTick} stroke="var(--grid)" interval="preserveStartEnd" />
        <YAxis
          tick={axisTick}
          stroke="var(--grid)"
          width={36}
          allowDecimals={false}
          domain={[0, Math.max(1, maxCount)]}
        />
        <Tooltip
          formatter={(value) => [`${String(value)} runs`, 'Runs']}
          contentStyle={TOOLTIP_BOX}
          cursor={{ fill: 'var(--bg-inset)' }}
        />
        <Bar
          dataKey="runs"
          fill={color}
          isAnimationActive={false}
          minPointSize={(value) => (typeof value === 'number' && value > 0 ? 3 : 0)}
        />
        {p50Bin !== null && (
          <ReferenceLine
            x={p50Bin}
            stroke="var(--fg)"
            strokeDasharray="4 3"
            label={{ value: 'p50', position: 'top', dx: -12, fill: 'var(--fg)', fontSize: 11 }}
          />
        )}
        {p95Bin !== null && (
          <ReferenceLine
            x={p95Bin}
            stroke="var(--exit-hard_error)"
            strokeWidth={2}
            label={{
              value: 'p95',
              position: 'top',
              dx: 12,
              fill: 'var(--exit-hard_error)',
              fontSize: 11,
              fontWeight: 600,
            }}
          />
        )}
      </BarChart>
    </figure>
  );
}

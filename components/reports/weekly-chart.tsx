'use client';

import { useMemo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { WeeklySeries } from '@/trajectory/report-weekly';
import { assignSeriesStyles } from '../charts/palette';
import { formatUsd } from '../format';
import { formatRatio, groupLabel } from './labels';
import type { GroupDimension } from './labels';
import styles from './reports.module.css';
import { AXIS_TICK, TOOLTIP_BOX } from './chart-style';

/**
 * Cost per verified unit by ISO week, one line per group in the group's own colour (the same on
 * every page), a gap where nothing was verified. On a log scale cheap groups are not flattened
 * onto $0 by expensive ones; a $0 week has no place on it and leaves a gap.
 */
export function WeeklyChart({
  series,
  groupBy,
  scale,
  domain,
}: {
  series: WeeklySeries;
  groupBy: GroupDimension;
  scale: 'linear' | 'log';
  /** Every name of the dimension in the window, which fixes each group's colour. */
  domain: readonly string[];
}) {
  const data = useMemo(
    () =>
      series.points.map((p) => ({
        week: p.week,
        ...Object.fromEntries(
          p.values.map((v, k) => [`s${k}`, scale === 'log' && v !== null && v <= 0 ? null : v]),
        ),
      })),
    [series, scale],
  );
  // Whole decades on a log scale: $0.001, $0.01, $0.1 … from below the cheapest to above the
  // dearest, so each order of magnitude takes the same height.
  const decades = useMemo(() => {
    const values = series.points
      .flatMap((p) => p.values)
      .filter((v): v is number => v !== null && v > 0);
    if (values.length === 0) return null;
    const low = Math.floor(Math.log10(values.reduce((a, b) => (b < a ? b : a))));
    const high = Math.max(low + 1, Math.ceil(Math.log10(values.reduce((a, b) => (b > a ? b : a)))));
    return Array.from({ length: high - low + 1 }, (_, k) => 10 ** (low + k));
  }, [series]);
  const log = scale === 'log' && decades !== null;
  const colors = useMemo(
    () => assignSeriesStyles([...domain, ...series.groups]),
    [domain, series.groups],
  );
  return (
    <div className={styles.chart}>
      <LineChart
        data={data}
        responsive
        style={{ width: '100%', height: 300 }}
        margin={{ top: 8, right: 24, bottom: 4, left: 8 }}
      >
        <CartesianGrid stroke="var(--grid)" vertical={false} />
        <XAxis dataKey="week" tick={AXIS_TICK} stroke="var(--grid)" tickMargin={6} />
        <YAxis
          tick={AXIS_TICK}
          stroke="var(--grid)"
          width={76}
          scale={log ? 'log' : 'linear'}
          domain={log ? [decades[0]!, decades[decades.length - 1]!] : [0, 'auto']}
          ticks={log ? decades : undefined}
          tickFormatter={(v: number) => formatUsd(v)}
          label={{
            value: `$ per verified unit${log ? ' (log)' : ''}`,
            angle: -90,
            position: 'insideLeft',
            style: { fill: 'var(--axis)', fontSize: 12, textAnchor: 'middle' },
          }}
        />
        <Tooltip
          labelFormatter={(week) => {
            const start = series.points.find((p) => p.week === week)?.weekStart;
            return start ? `${String(week)} (from Monday ${start})` : String(week);
          }}
          formatter={(value) => formatRatio(typeof value === 'number' ? value : null)}
          contentStyle={TOOLTIP_BOX}
          labelStyle={{ color: 'var(--fg)', fontWeight: 600 }}
        />
        <Legend
          wrapperStyle={{ fontSize: 12.5 }}
          formatter={(name) => (
            <span className="one-line" title={String(name)}>
              {String(name)}
            </span>
          )}
        />
        {series.groups.map((group, k) => {
          const style = colors.get(group);
          return (
            <Line
              key={`${k}-${group ?? ''}`}
              type="linear"
              dataKey={`s${k}`}
              name={groupLabel(group, groupBy)}
              stroke={style?.color}
              strokeDasharray={style?.dash}
              strokeWidth={2}
              dot={{ r: 3, strokeWidth: 0, fill: style?.color }}
              activeDot={{ r: 5 }}
              connectNulls={false}
              isAnimationActive={false}
            />
          );
        })}
      </LineChart>
    </div>
  );
}

'use client';

import { useMemo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { WeeklySeries } from '@/trajectory/report-weekly';
import { formatUsd } from '../format';
import { formatRatio, groupLabel } from './labels';
import type { GroupDimension } from './labels';
import { seriesStroke } from './series-colors';
import styles from './reports.module.css';
import { AXIS_TICK, TOOLTIP_BOX } from './chart-style';

/** Cost per verified unit by ISO week, one line per group; a gap where nothing was verified. */
export function WeeklyChart({
  series,
  groupBy,
}: {
  series: WeeklySeries;
  groupBy: GroupDimension;
}) {
  const data = useMemo(
    () =>
      series.points.map((p) => ({
        week: p.week,
        ...Object.fromEntries(p.values.map((v, k) => [`s${k}`, v])),
      })),
    [series],
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
          width={64}
          tickFormatter={(v: number) => formatUsd(v)}
          label={{
            value: '$ per verified unit',
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
        <Legend wrapperStyle={{ fontSize: 12.5 }} />
        {series.groups.map((group, k) => (
          <Line
            key={`${k}-${group ?? ''}`}
            type="linear"
            dataKey={`s${k}`}
            name={groupLabel(group, groupBy)}
            {...seriesStroke(k)}
            strokeWidth={2}
            dot={{ r: 3, strokeWidth: 0, fill: seriesStroke(k).stroke }}
            activeDot={{ r: 5 }}
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </div>
  );
}

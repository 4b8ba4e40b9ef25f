'use client';

import { useMemo } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { CapOutcome } from '@/trajectory/report-caps';
import { formatUsd } from '../format';
import { formatRatio } from './labels';
import styles from './reports.module.css';
import { AXIS_TICK, TOOLTIP_BOX, axisTitle } from './chart-style';

/** Cost per verified unit as a function of a dollar cap per run, the optimum marked. */
export function DollarCapChart({ curve, best }: { curve: CapOutcome[]; best: number | null }) {
  const data = useMemo(
    () => curve.map((p) => ({ cap: p.cap, ratio: p.costPerVerifiedUnit })),
    [curve],
  );
  return (
    <figure className={styles.chart} style={{ margin: 0 }}>
      <figcaption className="visually-hidden">
        Cost per verified unit by dollar cap per run
      </figcaption>
      <LineChart
        data={data}
        responsive
        style={{ width: '100%', height: 220 }}
        margin={{ top: 22, right: 24, bottom: 16, left: 8 }}
      >
        <CartesianGrid stroke="var(--grid)" vertical={false} />
        <XAxis
          dataKey="cap"
          type="number"
          scale="log"
          domain={['dataMin', 'dataMax']}
          tick={AXIS_TICK}
          stroke="var(--grid)"
          tickFormatter={(v: number) => formatUsd(v)}
          label={axisTitle('dollar cap per run (log scale)')}
        />
        <YAxis
          tick={AXIS_TICK}
          stroke="var(--grid)"
          width={64}
          tickFormatter={(v: number) => formatUsd(v)}
        />
        <Tooltip
          labelFormatter={(cap) => `cap ${formatUsd(Number(cap))} per run`}
          formatter={(value) => [
            formatRatio(typeof value === 'number' ? value : null),
            'per verified unit',
          ]}
          contentStyle={TOOLTIP_BOX}
        />
        {best !== null && (
          <ReferenceLine
            x={best}
            stroke="var(--exit-goal_satisfied)"
            label={{
              value: `optimum ${formatUsd(best)}`,
              position: 'top',
              fill: 'var(--exit-goal_satisfied)',
              fontSize: 11,
            }}
          />
        )}
        <Line
          dataKey="ratio"
          type="stepBefore"
          stroke="var(--series-1)"
          strokeWidth={2}
          dot={false}
          connectNulls={false}
          isAnimationActive={false}
        />
      </LineChart>
    </figure>
  );
}

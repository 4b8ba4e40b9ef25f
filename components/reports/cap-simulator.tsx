'use client';

import { useId, useMemo, useState } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { CapOutcome } from '@/trajectory/report-caps';
import { change } from '@/trajectory/report-metrics';
import { formatCount, formatUsd } from '../format';
import { describeChange, formatRatio } from './labels';
import styles from './reports.module.css';
import { AXIS_TICK, TOOLTIP_BOX, axisTitle } from './chart-style';

/** Marker labels at three heights, on the side of the line that stays inside the chart. */
function labelPosition(k: number, nearRightEdge: boolean) {
  if (k === 2) return 'top' as const;
  const side = nearRightEdge ? 'Right' : 'Left';
  return k === 1 ? (`insideTop${side}` as const) : (`insideBottom${side}` as const);
}
const steps = (n: number) => `${formatCount(n)} step${n === 1 ? '' : 's'}`;

export interface CapMarkers {
  /** The step cap with the lowest cost per verified unit. */
  best: number | null;
  /** Longest verified run plus the margin. */
  recommended: number | null;
  /** The most common declared `loop.limits.max_steps`. */
  declared: number | null;
}

/**
 * Cost per verified unit as a function of the step cap, with the optimum, the recommended
 * ceiling and the declared limit marked, and a slider that reads the replay at any cap. The
 * slider writes `cap` into the URL (without a round trip), so the view is a link.
 */
export function CapSimulator({
  curve,
  actual,
  markers,
  initialCap,
}: {
  curve: CapOutcome[];
  /** The runs as they were (under the dollar cap, if one is set). */
  actual: CapOutcome;
  markers: CapMarkers;
  initialCap: number;
}) {
  const sliderId = useId();
  const nearest = (cap: number) => {
    let best = 0;
    curve.forEach((p, k) => {
      if (Math.abs(p.cap - cap) < Math.abs((curve[best]?.cap ?? 0) - cap)) best = k;
    });
    return best;
  };
  const [index, setIndex] = useState(() => nearest(initialCap));
  const point = curve[index] ?? curve[curve.length - 1];
  const data = useMemo(
    () => curve.map((p) => ({ cap: p.cap, ratio: p.costPerVerifiedUnit })),
    [curve],
  );
  if (!point) return null;

  const move = (next: number) => {
    setIndex(next);
    const cap = curve[next]?.cap;
    if (cap === undefined) return;
    const url = new URL(window.location.href);
    url.searchParams.set('cap', String(cap));
    window.history.replaceState(null, '', url);
  };
  const ratioChange = change(point.costPerVerifiedUnit, actual.costPerVerifiedUnit);
  const described = ratioChange ? describeChange(ratioChange) : null;
  const firstCap = curve[0]?.cap ?? 1;
  const lastCap = curve[curve.length - 1]?.cap ?? 1;
  const marks: { cap: number | null; label: string; color: string; dash?: string }[] = [
    { cap: markers.declared, label: 'declared', color: 'var(--muted)', dash: '2 3' },
    {
      cap: markers.recommended,
      label: 'recommended',
      color: 'var(--exit-model_stopped)',
      dash: '6 3',
    },
    { cap: markers.best, label: 'optimum', color: 'var(--exit-goal_satisfied)' },
  ];

  return (
    <div style={{ display: 'grid', gap: 12 }}>
      <div className={styles.slider}>
        <label htmlFor={sliderId}>Step cap</label>
        <input
          id={sliderId}
          type="range"
          min={0}
          max={curve.length - 1}
          step={1}
          value={index}
          aria-valuetext={steps(point.cap)}
          onChange={(event) => move(Number(event.target.value))}
        />
        <output htmlFor={sliderId} className={styles.capValue}>
          {steps(point.cap)}
        </output>
      </div>
      <dl className={styles.facts} aria-live="polite">
        <div className={styles.fact}>
          <dt>Cost per verified unit at this cap</dt>
          <dd>
            {formatRatio(point.costPerVerifiedUnit)}
            <small>
              {described ? (
                <span
                  className={
                    described.direction === 'same' ? undefined : styles[described.direction]
                  }
                >
                  {described.text}
                </span>
              ) : (
                '—'
              )}{' '}
              vs {formatRatio(actual.costPerVerifiedUnit)} without it
            </small>
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>Runs cut</dt>
          <dd>
            {formatCount(point.cutRuns)} of {formatCount(point.runs)}
            <small>{formatCount(point.lostVerifiedRuns)} of them verified runs lost</small>
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>Verified units</dt>
          <dd>
            {formatCount(point.verifiedUnits)}
            <small>of {formatCount(actual.verifiedUnits)} without the cap</small>
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>Spend</dt>
          <dd>
            {formatUsd(point.costUsd)}
            <small>of {formatUsd(actual.costUsd)} without the cap</small>
          </dd>
        </div>
      </dl>
      <figure className={styles.chart} style={{ margin: 0 }}>
        <figcaption className="visually-hidden">
          Cost per verified unit for step caps from {curve[0]?.cap} to {lastCap}
        </figcaption>
        <LineChart
          data={data}
          responsive
          style={{ width: '100%', height: 300 }}
          margin={{ top: 22, right: 24, bottom: 16, left: 8 }}
        >
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis
            dataKey="cap"
            type="number"
            domain={[curve[0]?.cap ?? 1, lastCap]}
            allowDecimals={false}
            tick={AXIS_TICK}
            stroke="var(--grid)"
            label={axisTitle('step cap')}
          />
          <YAxis
            tick={AXIS_TICK}
            stroke="var(--grid)"
            width={64}
            tickFormatter={(v: number) => formatUsd(v)}
          />
          <Tooltip
            labelFormatter={(cap) => `cap ${String(cap)} steps`}
            formatter={(value) => [
              formatRatio(typeof value === 'number' ? value : null),
              'per verified unit',
            ]}
            contentStyle={TOOLTIP_BOX}
          />
          {marks.map((m, k) =>
            m.cap === null ? null : (
              <ReferenceLine
                key={m.label}
                x={m.cap}
                stroke={m.color}
                strokeDasharray={m.dash}
                label={{
                  value: `${m.label} ${m.cap}`,
                  position: labelPosition(k, m.cap > firstCap + 0.6 * (lastCap - firstCap)),
                  fill: m.color,
                  fontSize: 11,
                }}
              />
            ),
          )}
          <ReferenceLine x={point.cap} stroke="var(--accent)" strokeWidth={2} />
          <Line
            dataKey="ratio"
            type="stepAfter"
            stroke="var(--series-0)"
            strokeWidth={2}
            dot={false}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </figure>
    </div>
  );
}

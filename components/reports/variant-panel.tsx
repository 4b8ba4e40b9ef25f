import type { VariantStats } from '@/trajectory/report-compare';
import type { HistogramLayout } from '@/trajectory/report-metrics';
import { costPerVerifiedUnit, passRate } from '@/trajectory/report-metrics';
import { formatCount, formatUsd } from '../format';
import { ExitBreakdown } from './exit-breakdown';
import { HistogramChart } from './histogram-chart';
import { formatPercent, formatRatio } from './labels';
import styles from './reports.module.css';

const stat = (value: number | null, unit: 'usd' | 'steps') =>
  value === null
    ? '—'
    : unit === 'usd'
      ? formatUsd(value)
      : formatCount(Math.round(value * 10) / 10);

/** One variant's column: its numbers, both distributions with p50 and p95, how its runs ended. */
export function VariantPanel({
  side,
  stats,
  color,
  costLayout,
  stepLayout,
  maxCostCount,
  maxStepCount,
}: {
  side: 'A' | 'B';
  stats: VariantStats;
  color: string;
  costLayout: HistogramLayout;
  stepLayout: HistogramLayout;
  maxCostCount: number;
  maxStepCount: number;
}) {
  const headingId = `variant-${side}`;
  const ratio = costPerVerifiedUnit(stats.costUsd, stats.verifiedUnits);
  return (
    <section className={`panel ${styles.section}`} aria-labelledby={headingId}>
      <h2 id={headingId}>
        <span className={styles.swatch} style={{ background: color }} aria-hidden="true" />
        {side} · {stats.variant}
      </h2>
      <dl className={`${styles.facts} ${styles.facts2}`}>
        <div className={styles.fact}>
          <dt>Runs</dt>
          <dd>{formatCount(stats.runs)}</dd>
        </div>
        <div className={styles.fact}>
          <dt>Pass rate</dt>
          <dd>
            {formatPercent(passRate(stats.verifiedRuns, stats.runs))}
            <small>{formatCount(stats.verifiedRuns)} verified</small>
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>Cost per verified unit</dt>
          <dd>
            {ratio !== null && stats.unpricedRuns > 0 ? '≥ ' : ''}
            {formatRatio(ratio)}
            <small>
              {formatUsd(stats.costUsd)} / {formatCount(stats.verifiedUnits)} units
            </small>
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>Wasted spend</dt>
          <dd>
            {formatUsd(stats.wastedUsd)}
            <small>
              {formatPercent(stats.costUsd > 0 ? stats.wastedUsd / stats.costUsd : null)} of spend
            </small>
          </dd>
        </div>
      </dl>
      <HistogramChart
        title={`Cost per run — p50 ${stat(stats.cost.p50, 'usd')} · p95 ${stat(stats.cost.p95, 'usd')} · max ${stat(stats.cost.max, 'usd')}`}
        counts={stats.cost.histogram}
        layout={costLayout}
        unit="usd"
        p50={stats.cost.p50}
        p95={stats.cost.p95}
        maxCount={maxCostCount}
        color={color}
      />
      <HistogramChart
        title={`Steps per run — p50 ${stat(stats.steps.p50, 'steps')} · p95 ${stat(stats.steps.p95, 'steps')} · max ${stat(stats.steps.max, 'steps')}`}
        counts={stats.steps.histogram}
        layout={stepLayout}
        unit="steps"
        p50={stats.steps.p50}
        p95={stats.steps.p95}
        maxCount={maxStepCount}
        color={color}
      />
      <h3 style={{ fontSize: 13 }}>How runs ended</h3>
      <ExitBreakdown exits={stats.exits} label={`Exit categories of ${stats.variant}`} />
    </section>
  );
}

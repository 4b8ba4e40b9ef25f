import type { VariantComparison, VariantStats } from '@/trajectory/report-compare';
import { costPerVerifiedUnit, passRate } from '@/trajectory/report-metrics';
import { formatCount, formatUsd, isNoChangeUsd } from '../format';
import { formatPercent, formatRatio } from './labels';
import styles from './reports.module.css';

interface Metric {
  label: string;
  value: (s: VariantStats) => number | null;
  format: (v: number | null) => string;
  /** Which way is better, for the B-vs-A column; none for plain counts. */
  better?: 'lower' | 'higher';
  /** The difference as text (percentage points for rates). */
  delta?: (b: number, a: number) => string;
  /** A money figure that is a lower bound when the variant has runs with unpriced models. */
  spend?: boolean;
}

const usd = (v: number | null) => (v === null ? '—' : formatUsd(v));
const steps = (v: number | null) => (v === null ? '—' : formatCount(Math.round(v * 10) / 10));
const signed = (d: number, text: string) => `${d > 0 ? '+' : d < 0 ? '−' : '±'}${text}`;
const usdDelta = (b: number, a: number) =>
  isNoChangeUsd(b - a) ? 'no change' : signed(b - a, formatUsd(Math.abs(b - a)));
const relative = (b: number, a: number) =>
  a === 0 ? '' : ` (${signed(b - a, `${Math.abs(((b - a) / a) * 100).toFixed(0)}%`)})`;

const METRICS: Metric[] = [
  { label: 'Runs', value: (s) => s.runs, format: (v) => (v === null ? '—' : formatCount(v)) },
  {
    label: 'Pass rate (verified runs / runs)',
    value: (s) => passRate(s.verifiedRuns, s.runs),
    format: (v) => formatPercent(v),
    better: 'higher',
    delta: (b, a) => `${signed(b - a, Math.abs((b - a) * 100).toFixed(0))} pp`,
  },
  {
    label: 'Verified units',
    value: (s) => s.verifiedUnits,
    format: (v) => (v === null ? '—' : formatCount(v)),
  },
  { label: 'Spend', value: (s) => s.costUsd, format: usd, spend: true },
  {
    label: 'Cost per verified unit',
    value: (s) => costPerVerifiedUnit(s.costUsd, s.verifiedUnits),
    format: formatRatio,
    better: 'lower',
    delta: (b, a) => (isNoChangeUsd(b - a) ? 'no change' : usdDelta(b, a) + relative(b, a)),
    spend: true,
  },
  {
    label: 'Wasted spend',
    value: (s) => s.wastedUsd,
    format: usd,
    better: 'lower',
    delta: usdDelta,
  },
  {
    label: 'Cost per run, p50',
    value: (s) => s.cost.p50,
    format: usd,
    better: 'lower',
    delta: usdDelta,
  },
  {
    label: 'Cost per run, p95',
    value: (s) => s.cost.p95,
    format: usd,
    better: 'lower',
    delta: usdDelta,
  },
  {
    label: 'Steps per run, p50',
    value: (s) => s.steps.p50,
    format: steps,
    better: 'lower',
    delta: (b, a) => signed(b - a, steps(Math.abs(b - a))),
  },
  {
    label: 'Steps per run, p95',
    value: (s) => s.steps.p95,
    format: steps,
    better: 'lower',
    delta: (b, a) => signed(b - a, steps(Math.abs(b - a))),
  },
];

/** A value, marked as a lower bound where unpriced models left the spend incomplete. */
function cell(m: Metric, s: VariantStats, value: number | null): string {
  const lowerBound = m.spend && value !== null && s.unpricedRuns > 0;
  return `${lowerBound ? '≥ ' : ''}${m.format(value)}`;
}

/** Both variants' numbers in one table, with B against A where a direction is better. */
export function ComparisonTable({ comparison }: { comparison: VariantComparison }) {
  const { a, b } = comparison;
  return (
    <div className={styles.tableWrap}>
      <table className={`${styles.table} ${styles.stacked} ${styles.stacked3}`}>
        <caption className="visually-hidden">
          {a.variant} (A) and {b.variant} (B) side by side
        </caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col" className={styles.num}>
              A · {a.variant}
            </th>
            <th scope="col" className={styles.num}>
              B · {b.variant}
            </th>
            <th scope="col" className={styles.num}>
              B vs A
            </th>
          </tr>
        </thead>
        <tbody>
          {METRICS.map((m) => {
            const va = m.value(a);
            const vb = m.value(b);
            let delta: { text: string; className?: string } = { text: '' };
            if (m.delta && m.better && va !== null && vb !== null) {
              const same = Math.abs(vb - va) < 1e-9;
              const improved = m.better === 'lower' ? vb < va : vb > va;
              delta = {
                text: same ? 'same' : m.delta(vb, va),
                className: same ? 'muted' : improved ? styles.better : styles.worse,
              };
            }
            return (
              <tr key={m.label}>
                <th scope="row" style={{ fontWeight: 400, background: 'none', color: 'var(--fg)' }}>
                  {m.label}
                </th>
                <td className={styles.num} data-label="A">
                  {cell(m, a, va)}
                </td>
                <td className={styles.num} data-label="B">
                  {cell(m, b, vb)}
                </td>
                <td
                  className={`${styles.num} ${delta.className ?? ''}`}
                  data-label={delta.text ? 'B vs A' : undefined}
                >
                  {delta.text}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

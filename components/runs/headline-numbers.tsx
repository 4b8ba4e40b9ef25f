import Link from 'next/link';
import type { Change } from '@/trajectory/report-metrics';
import { SHARE_FIGURES } from '@/trajectory/headline-numbers';
import type { HeadlineFigure, HeadlineNumber } from '@/trajectory/headline-numbers';
import { formatCount, formatDuration, formatShare, formatUsd } from '../format';
import styles from './headline.module.css';

const LABELS: Record<HeadlineFigure, string> = {
  runs: 'Runs',
  costUsd: 'Spend',
  wastedUsd: 'Wasted spend',
  wastedShare: 'Wasted share',
  loopRate: 'Loop rate',
  costPerVerifiedUnit: 'Cost per verified unit',
};

/** A rise of these is bad news (more runs is neither). */
const WORSE_WHEN_UP: ReadonlySet<HeadlineFigure> = new Set([
  'costUsd',
  'wastedUsd',
  'wastedShare',
  'loopRate',
  'costPerVerifiedUnit',
]);

export interface CostliestLoop {
  label: string;
  wastedUsd: number;
  /** Its wasted spend in the previous window (0 when it did not occur there). */
  previousWastedUsd: number;
  href: string;
}

function formatValue(figure: HeadlineFigure, value: number | null): string {
  if (value === null) return '—';
  if (figure === 'runs') return formatCount(value);
  if (SHARE_FIGURES.has(figure)) return formatShare(value);
  return formatUsd(value);
}

function signed(text: string, negative: boolean): string {
  return `${negative ? '−' : '+'}${text}`;
}

/** "+12%", "−3.0 pts", "no change", "new" (from 0); null when there is nothing to compare. */
export function changeText(figure: HeadlineFigure, c: Change | null): string | null {
  if (c === null) return null;
  if (c.absolute === 0) return 'no change';
  if (SHARE_FIGURES.has(figure)) {
    return `${signed(Math.abs(c.absolute * 100).toFixed(1), c.absolute < 0)} pts`;
  }
  if (c.relative === null) return 'new';
  const percent = Math.abs(c.relative * 100);
  return `${signed(percent < 10 ? percent.toFixed(1) : percent.toFixed(0), c.relative < 0)}%`;
}

function trend(figure: HeadlineFigure, c: Change | null): 'worse' | 'better' | 'same' {
  if (c === null || c.absolute === 0 || !WORSE_WHEN_UP.has(figure)) return 'same';
  return c.absolute > 0 ? 'worse' : 'better';
}

/** The window's headline numbers, each against the window of the same length before it. */
export function HeadlineNumbers({
  numbers,
  costliest,
  against,
}: {
  numbers: readonly HeadlineNumber[];
  costliest: CostliestLoop | null;
  /** The previous window, as text: "the 30 d before". */
  against: string;
}) {
  const loopChange =
    costliest === null
      ? null
      : {
          absolute: costliest.wastedUsd - costliest.previousWastedUsd,
          relative:
            costliest.previousWastedUsd === 0
              ? null
              : (costliest.wastedUsd - costliest.previousWastedUsd) / costliest.previousWastedUsd,
        };
  return (
    <ul className={styles.headline} aria-label={`Headline numbers, against ${against}`}>
      {numbers.map((n) => {
        const text = changeText(n.figure, n.change);
        const label = LABELS[n.figure];
        const value = formatValue(n.figure, n.value);
        const vs = text === null ? `no value in ${against}` : `${text} vs ${against}`;
        return (
          <li
            key={n.figure}
            className={styles.item}
            data-figure={n.figure}
            aria-label={`${label}: ${value}, ${vs}`}
          >
            <span className={styles.label}>{label}</span>
            <span className={styles.value}>{value}</span>
            <span
              className={styles.change}
              data-trend={trend(n.figure, n.change)}
              title={`${against}: ${formatValue(n.figure, n.previous)}`}
            >
              {text === null ? '—' : `${text} vs ${against}`}
            </span>
          </li>
        );
      })}
      <li className={`${styles.item} ${styles.wide}`} data-figure="costliestLoop">
        <span className={styles.label}>Costliest loop</span>
        {costliest === null ? (
          <span className="muted">No loop signal in this window.</span>
        ) : (
          <>
            <Link className={styles.pattern} href={costliest.href}>
              {costliest.label || '(no action named)'}
            </Link>
            <span className={styles.value}>{formatUsd(costliest.wastedUsd)} wasted</span>
            <span
              className={styles.change}
              data-trend={trend('wastedUsd', loopChange)}
              title={`${against}: ${formatUsd(costliest.previousWastedUsd)}`}
            >
              {changeText('wastedUsd', loopChange)} vs {against}
            </span>
          </>
        )}
      </li>
    </ul>
  );
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** "the 30 d before", "the 24 h before": the previous window of the same length. */
export function previousWindowText(lengthMs: number): string {
  const text =
    lengthMs % DAY_MS === 0
      ? `${lengthMs / DAY_MS} d`
      : lengthMs % HOUR_MS === 0
        ? `${lengthMs / HOUR_MS} h`
        : formatDuration(lengthMs);
  return `the ${text} before`;
}

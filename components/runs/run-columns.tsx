import Link from 'next/link';
import {
  createColumnHelper,
  metaHelper,
  rowSortingFeature,
  tableFeatures,
} from '@tanstack/react-table';
import type { RunSummary } from '@/lib/api-types';
import type { RunSort } from '@/lib/filters';
import { formatCount, formatDuration, formatShortDateTime, formatUsd } from '../format';
import { viewHref } from '@/lib/view-window';
import { ExitBadge } from './exit-badge';
import { SignalBadges, VerificationMark } from './signal-badges';
import type { BadgeFlag } from './signal-badges';
import styles from './runs-table.module.css';

export interface RunColumnMeta {
  /** Column width in px; the run column takes what is left. */
  width?: number;
  numeric?: boolean;
  /** The cell's name where a small screen shows the row as a card. */
  label?: string;
}

/** Row sorting happens in the database (manualSorting); the feature gives headers their state. */
export const runTableFeatures = tableFeatures({
  rowSortingFeature,
  columnMeta: metaHelper<RunColumnMeta>(),
});

/** What cells need beyond the row: where their links go (the table memoises the columns). */
export interface RunLinks {
  /** The page's project, window and time zone, carried to the run's page. */
  view: Record<string, string>;
  flagHref: (flag: BadgeFlag) => string;
  timeZone: string;
}

/** Text that may be longer than its column: cut with an ellipsis, whole on hover. */
function Truncated({ text }: { text: string | null }) {
  if (text === null) return <span className="muted">—</span>;
  return (
    <span className={styles.truncate} title={text}>
      {text}
    </span>
  );
}

/** Columns whose id is a server sort key. */
export const SORTABLE: ReadonlySet<string> = new Set<RunSort>([
  'startedAt',
  'costUsd',
  'wastedUsd',
  'stepCount',
  'durationMs',
]);

const helper = createColumnHelper<typeof runTableFeatures, RunSummary>();

export function runColumns(links: RunLinks) {
  return helper.columns([
    helper.accessor('goal', {
      id: 'run',
      header: 'Run',
      enableSorting: false,
      cell: (info) => {
        const run = info.row.original;
        return (
          <div className={styles.runCell}>
            <Link
              className={styles.runLink}
              href={viewHref(`/runs/${encodeURIComponent(run.id)}`, links.view)}
              prefetch={false}
              title={run.goal ? `${run.goal}\n${run.id}` : run.id}
            >
              {run.goal ?? run.id}
            </Link>
            <span className={styles.runId}>{run.id}</span>
          </div>
        );
      },
    }),
    helper.accessor('agent', {
      header: 'Agent',
      enableSorting: false,
      meta: { width: 120, label: 'Agent' },
      cell: (info) => <Truncated text={info.getValue()} />,
    }),
    helper.accessor('variant', {
      header: 'Variant',
      enableSorting: false,
      meta: { width: 96, label: 'Variant' },
      cell: (info) => <Truncated text={info.getValue()} />,
    }),
    helper.accessor('exitCategory', {
      header: 'Exit',
      enableSorting: false,
      meta: { width: 168 },
      cell: (info) => (
        <ExitBadge
          category={info.getValue()}
          reason={
            info.row.original.exitKind
              ? `${info.row.original.exitReason ?? 'none'} (${info.row.original.exitKind} budget)`
              : info.row.original.exitReason
          }
        />
      ),
    }),
    helper.accessor('verification', {
      header: 'Verification',
      enableSorting: false,
      meta: { width: 112 },
      cell: (info) => <VerificationMark run={info.row.original} />,
    }),
    helper.accessor('stepCount', {
      header: 'Steps',
      meta: { width: 64, numeric: true, label: 'Steps' },
      cell: (info) => formatCount(info.getValue()),
    }),
    helper.accessor('costUsd', {
      header: 'Spend',
      meta: { width: 80, numeric: true, label: 'Spend' },
      cell: (info) => formatUsd(info.getValue()),
    }),
    helper.accessor('wastedUsd', {
      header: 'Wasted',
      meta: { width: 76, numeric: true, label: 'Wasted' },
      cell: (info) =>
        info.getValue() > 0 ? (
          <span className={styles.wasted}>{formatUsd(info.getValue())}</span>
        ) : (
          <span className="muted">$0</span>
        ),
    }),
    helper.display({
      id: 'signals',
      header: 'Loop signals',
      meta: { width: 150 },
      cell: (info) => <SignalBadges flags={info.row.original.flags} hrefFor={links.flagHref} />,
    }),
    helper.accessor('startedAt', {
      header: links.timeZone === 'UTC' ? 'Started (UTC)' : 'Started (local)',
      meta: { width: 120, label: 'Started' },
      cell: (info) => (
        <time dateTime={info.getValue()} title={`${info.getValue()} (${links.timeZone})`}>
          {formatShortDateTime(info.getValue(), links.timeZone)}
        </time>
      ),
    }),
    helper.accessor('durationMs', {
      header: 'Duration',
      meta: { width: 96, numeric: true, label: 'Duration' },
      cell: (info) =>
        info.getValue() === null ? (
          <span className="muted">running</span>
        ) : (
          formatDuration(info.getValue())
        ),
    }),
  ]);
}

// The weekly report as docs/api.md documents it: JSON rows with exactly these names, or CSV with the
// same columns under a header row (costPerVerifiedUnit empty when nothing was verified). The
// page's download is what the page shows: those columns and its wasted spend and week-on-week
// change, with runs that name no group under a name.
import { groupLabel } from '../trajectory/report-weekly';
import type { WeeklyGroupBy, WeeklyRow } from '../trajectory/report-weekly';
import { isoWeekOfDate } from '../trajectory/report-weeks';

export const WEEKLY_COLUMNS = [
  'week',
  'group',
  'runs',
  'verifiedRuns',
  'verifiedUnits',
  'costUsd',
  'costPerVerifiedUnit',
] as const;

export interface WeeklyJsonRow {
  week: string;
  group: string | null;
  runs: number;
  verifiedRuns: number;
  verifiedUnits: number;
  costUsd: number;
  costPerVerifiedUnit: number | null;
}

export function toWeeklyJson(row: WeeklyRow): WeeklyJsonRow {
  return {
    week: row.week,
    group: row.group,
    runs: row.runs,
    verifiedRuns: row.verifiedRuns,
    verifiedUnits: row.verifiedUnits,
    costUsd: row.costUsd,
    costPerVerifiedUnit: row.costPerVerifiedUnit,
  };
}

export const WEEKLY_PAGE_COLUMNS = [
  'week',
  'weekStart',
  'group',
  'runs',
  'verifiedRuns',
  'verifiedUnits',
  'costUsd',
  'unpricedRuns',
  'wastedUsd',
  'costPerVerifiedUnit',
  'previousCostPerVerifiedUnit',
  'changeUsd',
  'changePercent',
] as const;

export type WeeklyPageRow = Record<(typeof WEEKLY_PAGE_COLUMNS)[number], string | number | null>;

/** A row of the page's table: "(no model)" for runs without one, the change in $ and %. */
export function toWeeklyPageRow(row: WeeklyRow, groupBy: WeeklyGroupBy): WeeklyPageRow {
  return {
    week: row.week,
    weekStart: row.weekStart,
    group: groupLabel(row.group, groupBy),
    runs: row.runs,
    verifiedRuns: row.verifiedRuns,
    verifiedUnits: row.verifiedUnits,
    costUsd: row.costUsd,
    unpricedRuns: row.unpricedRuns,
    wastedUsd: row.wastedUsd,
    costPerVerifiedUnit: row.costPerVerifiedUnit,
    previousCostPerVerifiedUnit: row.previousCostPerVerifiedUnit,
    changeUsd: row.change?.absolute ?? null,
    changePercent:
      row.change?.relative === null || row.change?.relative === undefined
        ? null
        : Math.round(row.change.relative * 10_000) / 100,
  };
}

/** RFC 4180: CRLF lines, a header row, every text field quoted, numbers bare. */
export function weeklyCsv<C extends string>(
  rows: readonly Record<C, string | number | null>[],
  columns: readonly C[] = WEEKLY_COLUMNS as unknown as readonly C[],
): string {
  const lines = [columns.join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

// Group names are untrusted text. A spreadsheet runs a cell that starts with one of these as a
// formula, and one that splits on `;`, `|` or a tab (as some locales and imports do) sees a new
// cell start after each of those: each such start gets a leading '.
const FORMULA_START = /(?<=^|[,;|\t\r\n])(?=[=+\-@\t\r])/g;

function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const guarded = value.replace(FORMULA_START, "'");
  return `"${guarded.replace(/"/g, '""')}"`;
}

export function csvResponse(csv: string, filename: string): Response {
  return new Response(csv, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
    },
  });
}

/** Named by the first and the last ISO week it holds, as its `week` column and the page name
 * them: a Monday's date would read as the last day when it is the first of the last week. */
export function weeklyFilename(firstWeek: string, lastWeek: string, groupBy: string): string {
  const label = (monday: string) => isoWeekOfDate(monday).label;
  return `loopscope-weekly-${groupBy}-${label(firstWeek)}-to-${label(lastWeek)}.csv`;
}

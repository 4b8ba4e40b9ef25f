// The weekly report as API.md documents it: JSON rows with exactly these names, or CSV with the
// same columns under a header row (costPerVerifiedUnit empty when nothing was verified).
import type { WeeklyRow } from '@/trajectory/report-weekly';

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

/** RFC 4180: CRLF lines, a header row, every text field quoted, numbers bare. */
export function weeklyCsv(rows: readonly WeeklyJsonRow[]): string {
  const lines = [WEEKLY_COLUMNS.join(',')];
  for (const row of rows) lines.push(WEEKLY_COLUMNS.map((c) => csvField(row[c])).join(','));
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

export function weeklyFilename(firstWeek: string, lastWeek: string, groupBy: string): string {
  return `loopscope-weekly-${groupBy}-${firstWeek}-to-${lastWeek}.csv`;
}

// Runs per exit category per time bucket of a window, for the dashboard chart: UTC hours, days of
// the reader's time zone (from hour rollups when that zone is not UTC; in a zone whose offset is
// not whole hours an hour is counted in the day it starts in), or UTC weeks. Buckets without runs
// are filled in, so the series is dense from the window's start to its end.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TimeWindow } from '../../lib/filters';
import { EXIT_CATEGORIES } from '../../trajectory/exit-categories';
import type { ExitCategory } from '../../trajectory/exit-categories';
import { UTC, addDays, startOfZonedDayMs, zonedDay, zonedDayStartMs } from '../../lib/time-zone';
import type { Executor } from '../sql';
import { queryRows } from '../sql';
import { keyFor, windowRuns } from './window-runs';
import type { WindowScope } from './window-runs';

export const TIME_BUCKETS = ['hour', 'day', 'week'] as const;
export type TimeBucket = (typeof TIME_BUCKETS)[number];

const DAY_MS = 86_400_000;
const BUCKET_MS: Record<TimeBucket, number> = { hour: 3600_000, day: DAY_MS, week: 7 * DAY_MS };
// date_trunc('week') starts weeks on Monday; the epoch (1970-01-01) was a Thursday.
const BUCKET_OFFSET_MS: Record<TimeBucket, number> = { hour: 0, day: 0, week: -3 * DAY_MS };
const TRUNC_UNITS: Record<TimeBucket, SQL> = {
  hour: sql.raw(`'hour'`),
  day: sql.raw(`'day'`),
  week: sql.raw(`'week'`),
};
/** The series never has more buckets than this (the end of a longer window is cut). */
export const MAX_BUCKETS = 500;

export interface CategoryBucket {
  /** Start of the bucket, epoch milliseconds (UTC). */
  startMs: number;
  runs: Partial<Record<ExitCategory, number>>;
  costUsd: number;
}

const row = z.object({
  bucketMs: z.coerce.number(),
  exitCategory: z.enum(EXIT_CATEGORIES),
  runs: z.coerce.number(),
  costUsd: z.coerce.number(),
});

/** Hourly buckets up to three days, daily up to a year, weekly after that. */
export function bucketFor(window: TimeWindow): TimeBucket {
  const span = window.to.getTime() - window.from.getTime();
  return span <= 3 * DAY_MS ? 'hour' : span <= 366 * DAY_MS ? 'day' : 'week';
}

export async function categoriesOverTime(
  db: Executor,
  scope: WindowScope & { bucket: TimeBucket; timeZone?: string },
): Promise<CategoryBucket[]> {
  const timeZone = scope.timeZone ?? UTC;
  const zonedDays = scope.bucket === 'day' && timeZone !== UTC;
  // UTC hours nest in days and weeks, days in weeks: every rollup row falls in one bucket.
  const rollup = windowRuns(scope, {
    key: keyFor(scope),
    coarsest: scope.bucket === 'hour' || zonedDays ? 'hour' : 'day',
    bucket: true,
    cost: true,
  });
  const start = zonedDays
    ? sql`(date_trunc('day', bucket at time zone ${timeZone}) at time zone ${timeZone})`
    : sql`date_trunc(${TRUNC_UNITS[scope.bucket]}, bucket at time zone 'UTC')`;
  const rows = await queryRows(
    db,
    sql`select (extract(epoch from ${start}) * 1000)::float8 as "bucketMs",
          exit_category as "exitCategory", sum(runs)::int as runs,
          coalesce(sum(cost_usd), 0)::float8 as "costUsd"
        from ${rollup} w
        group by 1, 2
        order by 1, 2`,
    row,
  );
  return densify(
    rows,
    zonedDays ? zonedDayStarts(scope.window, timeZone) : fixedStarts(scope.window, scope.bucket),
  );
}

function fixedStarts(window: TimeWindow, bucket: TimeBucket): number[] {
  const size = BUCKET_MS[bucket];
  const offset = BUCKET_OFFSET_MS[bucket];
  const floor = (ms: number) => Math.floor((ms - offset) / size) * size + offset;
  const out: number[] = [];
  const last = floor(window.to.getTime() - 1);
  for (let t = floor(window.from.getTime()); t <= last && out.length < MAX_BUCKETS; t += size) {
    out.push(t);
  }
  return out;
}

/** Local midnights: days of 23 or 25 hours where the clocks change. */
function zonedDayStarts(window: TimeWindow, timeZone: string): number[] {
  const out: number[] = [];
  let day = zonedDay(startOfZonedDayMs(window.from.getTime(), timeZone), timeZone);
  const last = zonedDay(window.to.getTime() - 1, timeZone);
  while (day <= last && out.length < MAX_BUCKETS) {
    out.push(zonedDayStartMs(day, timeZone));
    day = addDays(day, 1);
  }
  return out;
}

function densify(rows: z.infer<typeof row>[], starts: number[]): CategoryBucket[] {
  const byStart = new Map<number, CategoryBucket>();
  for (const t of starts) byStart.set(t, { startMs: t, runs: {}, costUsd: 0 });
  for (const r of rows) {
    const entry = byStart.get(r.bucketMs);
    if (!entry) continue;
    entry.runs[r.exitCategory] = (entry.runs[r.exitCategory] ?? 0) + r.runs;
    entry.costUsd += r.costUsd;
  }
  return [...byStart.values()];
}

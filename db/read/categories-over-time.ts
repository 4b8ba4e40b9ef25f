// Runs per exit category per time bucket (UTC hours or days) of a window, for the dashboard chart.
// Buckets without runs are filled in, so the series is dense from the window's start to its end.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { TimeWindow } from '../../lib/filters';
import { EXIT_CATEGORIES } from '../../trajectory/exit-categories';
import type { ExitCategory } from '../../trajectory/exit-categories';
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
  scope: WindowScope & { bucket: TimeBucket },
): Promise<CategoryBucket[]> {
  const unit = TRUNC_UNITS[scope.bucket];
  // UTC hours nest in days and weeks, days in weeks: every rollup row falls in one bucket.
  const rollup = windowRuns(scope, {
    key: keyFor(scope),
    coarsest: scope.bucket === 'hour' ? 'hour' : 'day',
    bucket: true,
    cost: true,
  });
  const rows = await queryRows(
    db,
    sql`select (extract(epoch from date_trunc(${unit}, bucket at time zone 'UTC')) * 1000)::float8
            as "bucketMs",
          exit_category as "exitCategory", sum(runs)::int as runs,
          coalesce(sum(cost_usd), 0)::float8 as "costUsd"
        from ${rollup} w
        group by 1, 2
        order by 1, 2`,
    row,
  );
  return densify(rows, scope.window, scope.bucket);
}

function densify(
  rows: z.infer<typeof row>[],
  window: TimeWindow,
  bucket: TimeBucket,
): CategoryBucket[] {
  const size = BUCKET_MS[bucket];
  const offset = BUCKET_OFFSET_MS[bucket];
  const floor = (ms: number) => Math.floor((ms - offset) / size) * size + offset;
  const first = floor(window.from.getTime());
  const last = floor(window.to.getTime() - 1);
  const byStart = new Map<number, CategoryBucket>();
  for (let t = first; t <= last && byStart.size < MAX_BUCKETS; t += size) {
    byStart.set(t, { startMs: t, runs: {}, costUsd: 0 });
  }
  for (const r of rows) {
    const entry = byStart.get(r.bucketMs);
    if (!entry) continue;
    entry.runs[r.exitCategory] = (entry.runs[r.exitCategory] ?? 0) + r.runs;
    entry.costUsd += r.costUsd;
  }
  return [...byStart.values()];
}

// The runs list: filters, a sort, and keyset pages (the cursor holds the last row's sort value
// and id), so a deep page costs what the first does.
import { and, asc, desc, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { RunSummary } from '../../lib/api-types';
import { AppError } from '../../lib/app-error';
import type { RunSort } from '../../lib/filters';
import { CURSOR_PROBLEM, decodeRunCursor, encodeRunCursor } from '../../lib/run-cursor';
import type { RunCursor } from '../../lib/run-cursor';
import { runs } from '../schema';
import type { Executor } from '../sql';
import { runScope } from './run-filters';
import { planSearch } from './search-plan';
import type { RunScope } from './run-filters';
import { runSummaryRow, toRunSummary } from './run-summary';
import type { RunSummaryRecord } from './run-summary';

export interface RunListQuery extends RunScope {
  sort: RunSort;
  order: 'asc' | 'desc';
  limit: number;
  cursor?: string;
}

const SORT_COLUMNS: Record<RunSort, SQL> = {
  startedAt: sql`${runs.startedAt}`,
  costUsd: sql`${runs.costUsd}`,
  wastedUsd: sql`${runs.wastedUsd}`,
  stepCount: sql`${runs.stepCount}`,
  // Runs still going have no duration: they sort as the shortest.
  durationMs: sql`coalesce(${runs.durationMs}, -1)`,
};

/** The same order, but no index provides it: the planner gathers the matches, then sorts. */
function unindexedColumn(sort: RunSort): SQL {
  const column = SORT_COLUMNS[sort];
  return sort === 'startedAt' ? sql`${column} + interval '0 s'` : sql`${column} + 0`;
}

export async function listRuns(
  db: Executor,
  query: RunListQuery,
): Promise<{ runs: RunSummary[]; nextCursor: string | null }> {
  const column = SORT_COLUMNS[query.sort];
  const { checkedWords, sortMatches } = await planSearch(db, query.q, query.limit);
  // Gathered matches are sorted, not walked: the cursor's bound is on the same unindexed
  // expression, so it does not draw the planner to the sort's index either.
  const order = sortMatches ? unindexedColumn(query.sort) : column;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, query.sort);
  // The cursor's value has the column's type, so a walked list's row comparison can use the
  // sort's index.
  const typed = (value: string | number) =>
    query.sort === 'startedAt'
      ? sql`${value}::timestamptz`
      : query.sort === 'stepCount'
        ? sql`${value}::int`
        : sql`${value}::float8`;
  const keyset =
    after === undefined
      ? undefined
      : query.order === 'desc'
        ? sql`(${order}, ${runs.id}) < (${typed(after.value)}, ${after.id})`
        : sql`(${order}, ${runs.id}) > (${typed(after.value)}, ${after.id})`;
  const direction = query.order === 'desc' ? desc : asc;
  const selected = await db
    .select({ row: runSummaryRow.select })
    .from(runs)
    .where(and(runScope({ ...query, checkedWords, searchByWeek: sortMatches }), keyset))
    .orderBy(direction(order), direction(runs.id))
    .limit(query.limit + 1);
  const rows = selected.map((r) => runSummaryRow.parse(r.row));
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = rows.length > query.limit && last ? encodeCursor(query.sort, last) : null;
  return { runs: page.map(toRunSummary), nextCursor };
}

function encodeCursor(sort: RunSort, row: RunSummaryRecord): string {
  const value =
    sort === 'startedAt'
      ? new Date(row.startedAt).toISOString()
      : sort === 'durationMs'
        ? (row.durationMs ?? -1)
        : row[sort];
  return encodeRunCursor(sort, value, row.id);
}

function decodeCursor(cursor: string, sort: RunSort): RunCursor {
  const decoded = decodeRunCursor(cursor, sort);
  if (decoded === null) throw new AppError('bad_request', `cursor ${CURSOR_PROBLEM}`);
  return decoded;
}

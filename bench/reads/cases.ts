// The reads the dashboard and the API make, as the pages and routes call them, over windows that
// end at the dataset's "now" (so both edges fall inside an hour, as a real "last 7 days" does).
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { bucketFor, categoriesOverTime } from '../../db/read/categories-over-time';
import { exitReasonGroups } from '../../db/read/exit-reason-groups';
import { listRuns } from '../../db/read/list-runs';
import { listSteps } from '../../db/read/list-steps';
import { loopPatterns } from '../../db/read/loop-patterns';
import { getSession, listSessions } from '../../db/read/sessions';
import { runFacets } from '../../db/read/run-facets';
import { trajectorySteps } from '../../db/read/trajectory-steps';
import { windowTotals } from '../../db/read/window-totals';
import { weeklyTotals } from '../../db/read/weekly-report';
import { column as dbColumn, queryRows } from '../../db/sql';
import { z } from 'zod';
import type { RunSort, TimeWindow } from '../../lib/filters';
import { WEEK_MS, isoWeekStartMs, utcDate } from '../../trajectory/report-weeks';
import { FIXED_WORD, FIXED_WORD_RUNS_PER_DAY, PROBE_RUN_ID } from './dataset';

export interface ReadCase {
  name: string;
  run: (db: Database) => Promise<unknown>;
}

const DAY_MS = 86_400_000;
const SORT_SQL: Record<RunSort, string> = {
  startedAt: 'started_at',
  costUsd: 'cost_usd',
  wastedUsd: 'wasted_usd',
  stepCount: 'step_count',
  durationMs: 'coalesce(duration_ms, -1)',
};
export const LIST_SORTS = Object.keys(SORT_SQL) as RunSort[];
const PAGE = 50;

export function windowEnding(nowMs: number, days: number): TimeWindow {
  return { from: new Date(nowMs - days * DAY_MS), to: new Date(nowMs) };
}

/**
 * The list's cursor for the row in the middle of the window in this sort (what paging half-way
 * through would hand out): a keyset page there must cost what the first page does.
 */
async function middleCursor(
  db: Database,
  projectId: string,
  window: TimeWindow,
  sort: RunSort,
  filter: { agent?: string; exitCategory?: string } = {},
): Promise<string> {
  const where = sql`project_id = ${projectId}::uuid
    and started_at >= ${window.from.toISOString()}::timestamptz
    and started_at < ${window.to.toISOString()}::timestamptz
    ${filter.agent === undefined ? sql`` : sql`and agent = ${filter.agent}`}
    ${filter.exitCategory === undefined ? sql`` : sql`and exit_category::text = ${filter.exitCategory}`}`;
  const [count] = await queryRows(
    db,
    sql`select count(*)::int as n from runs where ${where}`,
    z.object({ n: dbColumn.number }),
  );
  const offset = Math.floor((count?.n ?? 0) / 2);
  const column = sql.raw(SORT_SQL[sort]);
  const value = sql.raw(sort === 'startedAt' ? 'extract(epoch from started_at)' : SORT_SQL[sort]);
  const [row] = await queryRows(
    db,
    sql`select id, to_char(started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as iso,
          (${value})::float8 as value
        from runs where ${where}
        order by ${column} desc, id desc offset ${offset} limit 1`,
    z.object({ id: dbColumn.text, iso: dbColumn.text, value: dbColumn.number }),
  );
  if (!row) throw new Error('the window has no runs');
  const at = sort === 'startedAt' ? row.iso : row.value;
  return Buffer.from(JSON.stringify([sort, at, row.id])).toString('base64url');
}

export async function readCases(
  db: Database,
  projectId: string,
  nowMs: number,
  probeSteps: number,
): Promise<ReadCase[]> {
  const day = windowEnding(nowMs, 1);
  const week = windowEnding(nowMs, 7);
  const month = windowEnding(nowMs, 30);
  const scope = (window: TimeWindow) => ({ projectId, window });
  const cases: ReadCase[] = [
    ...(
      [
        ['24 h', day],
        ['7 d', week],
        ['30 d', month],
      ] as const
    ).flatMap(([label, window]): ReadCase[] => [
      {
        name: `exit-reason groups, ${label}`,
        run: (db) => exitReasonGroups(db, scope(window)),
      },
      {
        name: `categories over time, ${label} (${bucketFor(window)}s)`,
        run: (db) => categoriesOverTime(db, { ...scope(window), bucket: bucketFor(window) }),
      },
      { name: `agent/variant facets, ${label}`, run: (db) => runFacets(db, scope(window)) },
      // The patterns page (50 by wasted spend) and the home page's headline numbers.
      {
        name: `loop patterns, ${label}`,
        run: (db) => loopPatterns(db, { ...scope(window), limit: 50 }),
      },
      { name: `headline totals, ${label}`, run: (db) => windowTotals(db, scope(window)) },
    ]),
  ];
  for (const sort of LIST_SORTS) {
    const query = { ...scope(week), sort, order: 'desc' as const, limit: PAGE };
    const cursor = await middleCursor(db, projectId, week, sort);
    cases.push(
      { name: `runs list by ${sort}, 7 d, first page`, run: (db) => listRuns(db, query) },
      {
        name: `runs list by ${sort}, 7 d, middle page`,
        run: (db) => listRuns(db, { ...query, cursor }),
      },
    );
  }
  // Filtered lists, as the tiles and the agent menu make them.
  for (const filter of [{ exitCategory: 'no_progress' as const }, { agent: 'coder' }]) {
    const label = filter.exitCategory ?? `agent ${filter.agent}`;
    const query = { ...scope(week), ...filter, sort: 'startedAt' as const, order: 'desc' as const };
    const cursor = await middleCursor(db, projectId, week, 'startedAt', filter);
    cases.push(
      {
        name: `runs list, 7 d, ${label}, first page`,
        run: (db) => listRuns(db, { ...query, limit: PAGE }),
      },
      {
        name: `runs list, 7 d, ${label}, middle page`,
        run: (db) => listRuns(db, { ...query, limit: PAGE, cursor }),
      },
    );
  }
  // Search (`q`: trigram matches in the runs' search text) and sessions, as the runs list, the
  // sessions list and a session's page ask for them.
  for (const [label, q] of [
    ['a goal word in 0.1 % of runs (a page at 10M, 1 run at 100k)', 'task 613'],
    [`a word in ${FIXED_WORD_RUNS_PER_DAY} runs a day at either size`, FIXED_WORD],
    ['an action every run took', 'read_file'],
    ['no match', 'no-such-word'],
  ] as const) {
    cases.push({
      name: `runs search, 7 d, ${label}, first page`,
      run: (db) =>
        listRuns(db, { ...scope(week), q, sort: 'startedAt', order: 'desc', limit: PAGE }),
    });
  }
  cases.push(
    { name: 'sessions list, 7 d', run: (db) => listSessions(db, { ...scope(week), limit: PAGE }) },
    {
      name: 'sessions list, 30 d',
      run: (db) => listSessions(db, { ...scope(month), limit: PAGE }),
    },
  );
  const [recent] = await queryRows(
    db,
    sql`select session_id from runs where project_id = ${projectId}::uuid
      and session_id is not null order by started_at desc limit 1`,
    z.object({ session_id: dbColumn.text }),
  );
  if (recent) {
    cases.push({
      name: 'a session and its runs',
      run: (db) => getSession(db, { projectId, sessionId: recent.session_id }),
    });
  }
  const probe = { projectId, runId: PROBE_RUN_ID };
  cases.push(
    {
      name: `trajectory steps (page), ${probeSteps}-step run`,
      run: (db) => trajectorySteps(db, probe),
    },
    { name: `run steps (API), ${probeSteps}-step run`, run: (db) => listSteps(db, probe) },
  );
  const lastWeek = isoWeekStartMs(nowMs - 1);
  cases.push({
    name: 'weekly report, 12 weeks by agent',
    run: (db) =>
      weeklyTotals(db, {
        projectId,
        firstWeek: utcDate(lastWeek - 11 * WEEK_MS),
        lastWeek: utcDate(lastWeek),
        groupBy: 'agent',
      }),
  });
  return cases;
}

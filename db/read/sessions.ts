// Sessions: runs with the same session id (`loop.session.id`, `session.id`,
// `gen_ai.conversation.id`), listed by their latest run, newest first, in keyset pages; and one
// session with its runs in start order. Both read runs through the session index.
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RunSummary } from '../../lib/api-types';
import { AppError } from '../../lib/app-error';
import type { TimeWindow } from '../../lib/filters';
import { CURSOR_PROBLEM, decodeRunCursor, encodeRunCursor } from '../../lib/run-cursor';
import { runs } from '../schema';
import type { Executor } from '../sql';
import { column, queryRows } from '../sql';
import { toRunSummary } from './run-summary';

export interface SessionSummary {
  id: string;
  agent: string | null;
  runs: number;
  startedAt: string;
  /** When its last run ended; null while one of its runs is still running. */
  endedAt: string | null;
  costUsd: number;
  verifiedUnits: number;
  exitCategories: Record<string, number>;
}

const sessionRow = z.object({
  id: column.text,
  agent: column.textOrNull,
  runs: column.number,
  startedAt: column.isoTime,
  lastStartedAt: column.isoTime,
  endedAt: z.union([z.date(), z.string()]).nullable(),
  running: column.number,
  costUsd: column.number,
  verifiedUnits: column.number,
  exitCategories: column.json,
});

export async function listSessions(
  db: Executor,
  query: {
    projectId: string;
    window: TimeWindow;
    agent?: string;
    limit: number;
    cursor?: string;
  },
): Promise<{ sessions: SessionSummary[]; nextCursor: string | null }> {
  const after = query.cursor === undefined ? null : decodeRunCursor(query.cursor, 'startedAt');
  if (query.cursor !== undefined && after === null) {
    throw new AppError('bad_request', `cursor ${CURSOR_PROBLEM}`);
  }
  const agent = query.agent === undefined ? sql`` : sql`and agent = ${query.agent}`;
  const keyset =
    after === null
      ? sql``
      : sql`where ("lastStartedAt", id) < (${after.value}::timestamptz, ${after.id})`;
  const rows = await queryRows(
    db,
    sql`with by_category as (
          select session_id, exit_category, count(*)::int as n, min(started_at) as first_at,
            max(started_at) as last_at, max(ended_at) as ended_at,
            sum(cost_usd) as cost, sum(verified_units) as units,
            (array_agg(agent order by started_at) filter (where agent is not null))[1] as agent
          from runs
          where project_id = ${query.projectId}::uuid and session_id is not null
            and started_at >= ${query.window.from.toISOString()}::timestamptz
            and started_at < ${query.window.to.toISOString()}::timestamptz ${agent}
          group by session_id, exit_category
        ), sessions as (
          select session_id as id, sum(n)::int as runs, min(first_at) as "startedAt",
            max(last_at) as "lastStartedAt", max(ended_at) as "endedAt",
            sum(n) filter (where exit_category = 'running')::int as running,
            sum(cost) as "costUsd", sum(units) as "verifiedUnits",
            (array_agg(agent order by first_at) filter (where agent is not null))[1] as agent,
            jsonb_object_agg(exit_category, n) as "exitCategories"
          from by_category group by session_id
        )
        select id, agent, runs, "startedAt", "lastStartedAt", "endedAt",
          coalesce(running, 0) as running, "costUsd", "verifiedUnits", "exitCategories"
        from sessions ${keyset}
        order by "lastStartedAt" desc, id desc
        limit ${query.limit + 1}`,
    sessionRow,
  );
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    sessions: page.map(toSession),
    nextCursor:
      rows.length > query.limit && last
        ? encodeRunCursor('startedAt', last.lastStartedAt, last.id)
        : null,
  };
}

function toSession(row: z.output<typeof sessionRow>): SessionSummary {
  const categories: Record<string, number> = Object.create(null) as Record<string, number>;
  if (row.exitCategories && typeof row.exitCategories === 'object') {
    for (const [k, v] of Object.entries(row.exitCategories as Record<string, unknown>)) {
      if (typeof v === 'number') categories[k] = v;
    }
  }
  return {
    id: row.id,
    agent: row.agent,
    runs: row.runs,
    startedAt: row.startedAt,
    endedAt: row.running > 0 || row.endedAt === null ? null : new Date(row.endedAt).toISOString(),
    costUsd: row.costUsd,
    verifiedUnits: row.verifiedUnits,
    exitCategories: { ...categories },
  };
}

/** Most runs one session answers with; a session past it is cut at its first runs. */
export const SESSION_RUNS_LIMIT = 1000;

/** One session of the project, with its runs in start order; null when it has none. */
export async function getSession(
  db: Executor,
  { projectId, sessionId }: { projectId: string; sessionId: string },
): Promise<{ session: SessionSummary; runs: RunSummary[] } | null> {
  const rows = await db
    .select()
    .from(runs)
    .where(and(eq(runs.projectId, projectId), eq(runs.sessionId, sessionId)))
    .orderBy(asc(runs.startedAt), asc(runs.id))
    .limit(SESSION_RUNS_LIMIT);
  if (rows.length === 0) return null;
  const list = rows.map(toRunSummary);
  const exitCategories: Record<string, number> = {};
  for (const run of list) {
    exitCategories[run.exitCategory] = (exitCategories[run.exitCategory] ?? 0) + 1;
  }
  const running = list.some((r) => r.exitCategory === 'running');
  const ends = list.map((r) => r.endedAt).filter((e): e is string => e !== null);
  return {
    session: {
      id: sessionId,
      agent: list.find((r) => r.agent !== null)?.agent ?? null,
      runs: list.length,
      startedAt: list[0]!.startedAt,
      endedAt: running || ends.length === 0 ? null : ends.sort().at(-1)!,
      costUsd: list.reduce((sum, r) => sum + r.costUsd, 0),
      verifiedUnits: list.reduce((sum, r) => sum + r.verifiedUnits, 0),
      exitCategories,
    },
    runs: list,
  };
}

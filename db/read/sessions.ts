// Sessions: runs with the same session id (`loop.session.id`, `session.id`,
// `gen_ai.conversation.id`), listed by their latest run, newest first, in keyset pages; and one
// session with its runs in start order. A page finds its sessions by walking the window's runs
// newest first, then sums only theirs through the session index.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { RunSummary } from '../../lib/api-types';
import { AppError } from '../../lib/app-error';
import type { TimeWindow } from '../../lib/filters';
import { CURSOR_PROBLEM, decodeRunCursor, encodeRunCursor } from '../../lib/run-cursor';
import { runs } from '../schema';
import type { Executor } from '../sql';
import { asPgArray, column, queryRows } from '../sql';
import { runSummaryRow, toRunSummary } from './run-summary';

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
  const inWindow = sql`project_id = ${query.projectId}::uuid and session_id is not null
    and started_at >= ${query.window.from.toISOString()}::timestamptz
    and started_at < ${query.window.to.toISOString()}::timestamptz ${agent}`;
  const keyset =
    after === null
      ? sql``
      : sql`where ("lastStartedAt", id) < (${after.value}::timestamptz, ${after.id})`;
  const ids = await pageSessionIds(
    db,
    inWindow,
    after === null ? null : { value: String(after.value), id: after.id },
    query.limit + 1,
  );
  if (ids.length === 0) return { sessions: [], nextCursor: null };
  const rows = await queryRows(
    db,
    sql`with by_category as (
          select session_id, exit_category, count(*)::int as n, min(started_at) as first_at,
            max(started_at) as last_at, max(ended_at) as ended_at,
            sum(cost_usd) as cost, sum(verified_units) as units,
            (array_agg(agent order by started_at) filter (where agent is not null))[1] as agent
          from runs
          where ${inWindow} and session_id = any(${asPgArray(ids)}::text[])
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

const WALK_CHUNK = 256;
const walkRow = z.object({ session_id: column.text, at: column.isoTime, id: column.text });

/**
 * The ids of the first `want` sessions in (latest start desc, id desc) order after the cursor,
 * found by walking the window's runs newest first through runs_started_idx, so a page costs
 * about its sessions' runs, however many sessions the window holds. A session is met first at
 * its latest run; after a cursor, a session met below it may have a later run above it (it was
 * on an earlier page): each one's latest start is looked up by runs_session_idx.
 */
async function pageSessionIds(
  db: Executor,
  inWindow: SQL,
  after: { value: string; id: string } | null,
  want: number,
): Promise<string[]> {
  const afterMs = after === null ? null : Date.parse(after.value);
  const seen = new Set<string>();
  const found: { id: string; at: number }[] = [];
  let walked: { at: string; id: string } | null = null;
  for (;;) {
    const below: SQL =
      walked === null
        ? after === null
          ? sql``
          : sql`and started_at <= ${after.value}::timestamptz`
        : sql`and (started_at, id) < (${walked.at}::timestamptz, ${walked.id})`;
    const rows: z.output<typeof walkRow>[] = await queryRows(
      db,
      sql`select session_id, started_at as at, id from runs
        where ${inWindow} ${below}
        order by started_at desc, id desc limit ${WALK_CHUNK}`,
      walkRow,
    );
    const fresh = rows.filter((r) => !seen.has(r.session_id) && seen.add(r.session_id));
    let candidates = fresh.map((r) => ({ id: r.session_id, at: Date.parse(r.at) }));
    if (after !== null && afterMs !== null && candidates.length > 0) {
      const latest = await queryRows(
        db,
        sql`select session_id, max(started_at) as at, '' as id
          from runs where ${inWindow}
            and session_id = any(${asPgArray(candidates.map((c) => c.id))}::text[])
          group by session_id`,
        walkRow,
      );
      const latestOf = new Map(latest.map((l) => [l.session_id, Date.parse(l.at)]));
      candidates = candidates
        .map((c) => ({ id: c.id, at: latestOf.get(c.id) ?? c.at }))
        .filter((c) => c.at <= afterMs);
    }
    found.push(...candidates);
    const lastRow = rows[rows.length - 1];
    if (!lastRow) break;
    walked = { at: lastRow.at, id: lastRow.id };
    // Enough once the walk is below the start of the last session wanted: sessions of that
    // same start further down would sort among them (by id, in the database's collation, which
    // the summing query applies with the cursor). Sessions of the cursor's own start may be on
    // the earlier page: they are not counted.
    const edge = edgeStart(found, want, afterMs);
    if (edge !== null && Date.parse(lastRow.at) < edge) break;
    if (rows.length < WALK_CHUNK) break;
  }
  const edge = edgeStart(found, want, afterMs);
  return found.filter((f) => edge === null || f.at >= edge).map((f) => f.id);
}

/** The start of the `want`-th session found, not counting those of the cursor's start. */
function edgeStart(
  found: readonly { at: number }[],
  want: number,
  afterMs: number | null,
): number | null {
  const starts = found
    .map((f) => f.at)
    .sort((a, b) => b - a)
    .filter((at) => at !== afterMs);
  return starts[want - 1] ?? null;
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
    .select({ row: runSummaryRow.select })
    .from(runs)
    .where(and(eq(runs.projectId, projectId), eq(runs.sessionId, sessionId)))
    .orderBy(asc(runs.startedAt), asc(runs.id))
    .limit(SESSION_RUNS_LIMIT);
  if (rows.length === 0) return null;
  const list = rows.map((r) => toRunSummary(runSummaryRow.parse(r.row)));
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

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { createTestDatabase, rawRows, TEST_DATABASE_KINDS } from '../test-database';
import { saveRuns } from '../write/save-runs';
import { testRunRow } from '../write/test-run-row';
import { listSessions } from './sessions';

const T0 = Date.parse('2026-11-20T00:00:00Z');

describe.each(TEST_DATABASE_KINDS)('the sessions list on %s', (kind) => {
  let db: DatabaseHandle;
  let projectId: string;
  const window = { from: new Date(T0 - 86_400_000), to: new Date(T0 + 7 * 86_400_000) };
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    projectId = await ensureProject(db.db, 'sessions');
    // 900 runs in 300 sessions: more than one walk's chunk, sessions whose runs lie far apart,
    // many sharing a start to the millisecond (ties broken by id), ids whose order differs
    // between byte and dictionary collation, runs without a session and runs outside the window.
    const rows = Array.from({ length: 900 }, (_, k) => {
      const session = k % 300;
      const at = T0 + Math.floor(k / 7) * 60_000 + (k % 3 === 0 ? 0 : k);
      return testRunRow(`r${k}`, at, {
        sessionId: k % 50 === 49 ? null : `${session % 2 ? 'S' : 's'}-${session}`,
        agent: session % 5 === 0 ? 'writer' : 'coder',
        costUsd: k / 100,
        exitCategory: k % 11 === 0 ? 'running' : 'goal_satisfied',
      });
    });
    rows.push(testRunRow('before', T0 - 2 * 86_400_000, { sessionId: 's-0' }));
    await db.db.transaction((tx) => saveRuns(tx, projectId, rows, [], []));
  });
  afterAll(() => db?.close());

  /** Every session of the window in the list's order, by one aggregate over all its runs. */
  async function expected(agent?: string) {
    const rows = await rawRows(
      db.db,
      sql`select session_id as id, count(*)::int as runs, sum(cost_usd)::float8 as cost
        from runs where project_id = ${projectId}::uuid and session_id is not null
          and started_at >= ${window.from.toISOString()}::timestamptz
          and started_at < ${window.to.toISOString()}::timestamptz
          ${agent === undefined ? sql`` : sql`and agent = ${agent}`}
        group by session_id order by max(started_at) desc, session_id desc`,
    );
    return rows.map((r) => ({ id: String(r.id), runs: Number(r.runs), cost: Number(r.cost) }));
  }

  async function everyPage(limit: number, agent?: string) {
    const listed: { id: string; runs: number; cost: number }[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const { sessions, nextCursor } = await listSessions(db.db, {
        projectId,
        window,
        agent,
        limit,
        cursor,
      });
      expect(sessions.length).toBeLessThanOrEqual(limit);
      listed.push(...sessions.map((s) => ({ id: s.id, runs: s.runs, cost: s.costUsd })));
      if (nextCursor === null) break;
      cursor = nextCursor;
    }
    return listed;
  }

  it('pages through every session once, in order, with its totals over the window', async () => {
    const all = await expected();
    expect(all.length).toBeGreaterThan(250);
    for (const limit of [1, 7, 50, 400]) {
      const listed = await everyPage(limit);
      expect(listed.map((s) => s.id)).toEqual(all.map((s) => s.id));
      expect(listed.map((s) => s.runs)).toEqual(all.map((s) => s.runs));
      listed.forEach((s, k) => expect(s.cost).toBeCloseTo(all[k]!.cost, 9));
    }
  });

  it('filters by agent the same way', async () => {
    const all = await expected('writer');
    expect(all.length).toBeGreaterThan(20);
    expect((await everyPage(9, 'writer')).map((s) => s.id)).toEqual(all.map((s) => s.id));
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../client';
import { setRetentionDays } from '../projects';
import { rawRows, TEST_DATABASE_KINDS } from '../test-database';
import { createSender } from '../../e2e/support/otel';
import { emitRun, oscillation, restartLoop } from '../../e2e/support/scenarios';
import { startTestServer } from '../../e2e/support/test-server';
import type { TestServer } from '../../e2e/support/test-server';
import { startSpoolWorkers } from '../../server/spool-workers';
import { expireRuns } from './expire-runs';
import { storedAndRecomputedRollups } from './test-rollups';

const DAY = 86_400_000;

describe.each(TEST_DATABASE_KINDS)('deleting and keeping data on %s', (kind) => {
  let server: TestServer;
  let other: { projectId: string; key: string };
  beforeAll(async () => {
    server = await startTestServer(kind);
    other = await server.newProject('retention-other');
  });
  afterAll(async () => {
    await server?.close();
  });

  async function send(key: string, runs: { runId: string; startMs: number; loop?: boolean }[]) {
    const sender = createSender({ url: server.url, key, protocol: 'proto' });
    for (const run of runs) {
      const spec = run.loop
        ? oscillation(undefined, { runId: run.runId, startMs: run.startMs })
        : restartLoop({ runId: run.runId, startMs: run.startMs });
      emitRun(sender.tracer, spec);
    }
    await sender.flush();
    await sender.shutdown();
  }

  /** Rows of every table that keeps a run, for these runs. */
  async function leftOf(projectId: string, runIds: string[]) {
    const ids = `{${runIds.join(',')}}`;
    const count = async (query: ReturnType<typeof sql>) =>
      Number((await rawRows(server.database.db, query))[0]?.n);
    return {
      runs: await count(
        sql`select count(*) as n from runs where project_id = ${projectId}::uuid and id = any(${ids}::text[])`,
      ),
      steps: await count(
        sql`select count(*) as n from steps where project_id = ${projectId}::uuid and run_id = any(${ids}::text[])`,
      ),
      traceRuns: await count(
        sql`select count(*) as n from trace_runs where project_id = ${projectId}::uuid and run_id = any(${ids}::text[])`,
      ),
      patterns: await count(
        sql`select count(*) as n from run_patterns where project_id = ${projectId}::uuid and run_id = any(${ids}::text[])`,
      ),
      // Spans carry their run id in their attributes (`loop.run.id`): found without trace_runs.
      spans: await count(
        sql`select count(*) as n from spans where project_id = ${projectId}::uuid
          and attributes->>'loop.run.id' = any(${ids}::text[])`,
      ),
    };
  }

  const none = { runs: 0, steps: 0, traceRuns: 0, patterns: 0, spans: 0 };

  const api = (path: string, key: string, method = 'GET') =>
    fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${key}` } });

  it('DELETE /api/v1/runs/{id} removes the run from every table, read and rollup', async () => {
    const now = Date.now();
    await send(server.key, [
      { runId: 'del-a', startMs: now - 2 * DAY },
      { runId: 'del-b', startMs: now - 2 * DAY + 1000, loop: true },
      { runId: 'del-c', startMs: now - 9 * DAY },
    ]);
    await send(other.key, [{ runId: 'del-a', startMs: now - 2 * DAY }]);
    await server.settle();
    await server.settle(other.projectId);
    expect(await leftOf(server.projectId, ['del-a'])).toEqual({
      runs: 1,
      steps: 4,
      traceRuns: 1,
      patterns: 1,
      spans: 5,
    });

    // Another project's key cannot delete it: 404, as for a run that does not exist.
    expect((await api('/api/v1/runs/del-b', other.key, 'DELETE')).status).toBe(404);

    const deleted = await api('/api/v1/runs/del-a', server.key, 'DELETE');
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect(await leftOf(server.projectId, ['del-a'])).toEqual(none);
    // The other project's run of the same id stays whole.
    expect(await leftOf(other.projectId, ['del-a'])).toMatchObject({ runs: 1, spans: 5 });
    expect(await leftOf(server.projectId, ['del-b', 'del-c'])).toMatchObject({ runs: 2 });

    expect((await api('/api/v1/runs/del-a', server.key)).status).toBe(404);
    const listed = (await (
      await api('/api/v1/runs?limit=500&from=2000-01-01T00:00:00Z', server.key)
    ).json()) as {
      runs: { id: string }[];
    };
    expect(listed.runs.map((r) => r.id).sort()).toEqual(['del-b', 'del-c']);
    const { stored, recomputed } = await storedAndRecomputedRollups(
      server.database.db,
      server.projectId,
    );
    expect(stored).toEqual(recomputed);
    expect(stored.weekly_rollups?.length).toBeGreaterThan(0);

    // Again: nothing left to delete.
    expect((await api('/api/v1/runs/del-a', server.key, 'DELETE')).status).toBe(404);
  });

  it('a deleted run stays deleted: what was spooled before the delete and what comes after is dropped, counted', async () => {
    const now = Date.now();
    // Acknowledged and still spooled when the delete comes: the delete stores it first, and wins.
    await server.runtime.spoolWorkers?.stop();
    await send(server.key, [{ runId: 'del-spooled', startMs: now - DAY }]);
    expect(server.runtime.spool.backlog.requests).toBeGreaterThan(0);
    const deleted = await api('/api/v1/runs/del-spooled', server.key, 'DELETE');
    server.runtime.spoolWorkers = await startSpoolWorkers(server.runtime, server.database);
    expect(deleted.status).toBe(204);
    await server.settle();
    expect(await leftOf(server.projectId, ['del-spooled'])).toEqual(none);

    // Sent again after the delete (new traces naming the run): dropped, and counted on its
    // tombstone, never a run again.
    await send(server.key, [{ runId: 'del-spooled', startMs: now - DAY }]);
    await server.settle();
    expect(await leftOf(server.projectId, ['del-spooled'])).toEqual(none);
    expect((await api('/api/v1/runs/del-spooled', server.key)).status).toBe(404);
    const [tombstone] = await rawRows(
      server.database.db,
      sql`select spans_dropped from deleted_runs where project_id = ${server.projectId}::uuid
        and run_id = 'del-spooled'`,
    );
    expect(Number(tombstone?.spans_dropped)).toBe(5);
    // Another project's run of the same id is its own.
    await send(other.key, [{ runId: 'del-spooled', startMs: now - DAY }]);
    await server.settle(other.projectId);
    expect(await leftOf(other.projectId, ['del-spooled'])).toMatchObject({ runs: 1, spans: 5 });
  });

  it('a delete racing reads and ingest of the same run never answers 500, and wins when it answers 204', async () => {
    const now = Date.now();
    const statuses: number[] = [];
    for (let round = 0; round < 15; round++) {
      const runId = `del-race-${round}`;
      await send(server.key, [{ runId, startMs: now - DAY, loop: round % 2 === 0 }]);
      await server.settle();
      const path = `/api/v1/runs/${runId}`;
      const [deleted, ...others] = await Promise.all([
        api(path, server.key, 'DELETE'),
        api(path, server.key),
        api(`${path}/steps`, server.key),
        fetch(`${server.url}/api/v1/guard`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ runId }),
        }),
        send(server.key, [{ runId, startMs: now - DAY + 5000 }]).then(() => new Response(null)),
        api(path, server.key),
      ]);
      statuses.push(deleted!.status);
      expect([204, 409], `round ${round}`).toContain(deleted!.status);
      for (const answer of others) expect(answer.status, `round ${round}`).toBeLessThan(500);
      await server.settle();
      if (deleted!.status === 204) {
        expect(await leftOf(server.projectId, [runId]), `round ${round}`).toEqual(none);
      }
    }
    // Conflicts are met and retried inside the delete: a 409 is the rare exception.
    expect(statuses.filter((s) => s === 204).length).toBeGreaterThanOrEqual(12);
  });

  it('a step dated 2000-01-01 neither moves its run nor lets retention take it', async () => {
    const now = Date.now();
    const nanos = (ms: number) => `${ms}000000`;
    const traceId = 'dec0de00000000000000000000002000';
    const span = (spanId: string, startMs: number, extra: object) => ({
      traceId,
      spanId,
      name: spanId.endsWith('1') ? 'agent' : 'step',
      startTimeUnixNano: nanos(startMs),
      endTimeUnixNano: nanos(startMs + 100),
      ...extra,
    });
    const body = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                span('2000000000000001', now - 60_000, {
                  attributes: [{ key: 'loop.exit.reason', value: { stringValue: 'goal_met' } }],
                }),
                span('2000000000000002', Date.parse('2000-01-01T00:00:00Z'), {
                  parentSpanId: '2000000000000001',
                  attributes: [
                    { key: 'loop.step', value: { intValue: 1 } },
                    { key: 'loop.action', value: { stringValue: 'search' } },
                  ],
                }),
              ],
            },
          ],
        },
      ],
    };
    const sent = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(sent.status).toBe(200);
    await server.settle();
    const { run } = (await (await api(`/api/v1/runs/${traceId}`, server.key)).json()) as {
      run: { startedAt: string; stepCount: number };
    };
    expect(Date.parse(run.startedAt)).toBeGreaterThan(now - 120_000);
    expect(run.stepCount).toBe(1);
    const [row] = await rawRows(
      server.database.db,
      sql`select value_problems from runs where project_id = ${server.projectId}::uuid
        and id = ${traceId}`,
    );
    expect(row?.value_problems).toEqual([
      expect.objectContaining({
        key: 'startTimeUnixNano',
        spanId: '2000000000000002',
        problem: expect.stringMatching(/not used for the run's start or end/) as unknown,
      }),
    ]);
    // In the default window, and kept by a sweep with a 10-day retention.
    const listed = (await (await api('/api/v1/runs?limit=500', server.key)).json()) as {
      runs: { id: string }[];
    };
    expect(listed.runs.map((r) => r.id)).toContain(traceId);
    await setRetentionDays(server.database.db, 'default', 10);
    try {
      await expireRuns(server.database.db, { now: new Date() });
      expect(await leftOf(server.projectId, [traceId])).toMatchObject({ runs: 1 });
    } finally {
      await setRetentionDays(server.database.db, 'default', 30);
    }
    // The cases after this one count the project's runs.
    expect((await api(`/api/v1/runs/${traceId}`, server.key, 'DELETE')).status).toBe(204);
  });

  it('keeps each project’s runs for its retention days and removes the older ones', async () => {
    const now = Date.now();
    const old = ['ret-old-1', 'ret-old-2', 'ret-old-3'];
    const kept = ['ret-new-1', 'ret-new-2'];
    await send(server.key, [
      { runId: old[0]!, startMs: now - 45 * DAY },
      { runId: old[1]!, startMs: now - 31 * DAY, loop: true },
      { runId: old[2]!, startMs: now - 12 * DAY },
      { runId: kept[0]!, startMs: now - 9 * DAY },
      { runId: kept[1]!, startMs: now - DAY, loop: true },
    ]);
    await send(other.key, [{ runId: 'ret-other-old', startMs: now - 12 * DAY }]);
    await server.settle();
    await server.settle(other.projectId);
    await setRetentionDays(server.database.db, 'default', 10);

    // Batches of one: the sweep goes on until nothing expired is left.
    const outcome = await expireRuns(server.database.db, { batch: 1 });
    expect(outcome.busy).toBe(false);
    expect(outcome.removed.get(server.projectId)).toBe(3);
    expect(await leftOf(server.projectId, old)).toEqual(none);
    expect(await leftOf(server.projectId, kept)).toMatchObject({ runs: 2, traceRuns: 2 });
    // The other project keeps 30 days (the default): its 12-day-old run stays.
    expect(outcome.removed.has(other.projectId)).toBe(false);
    expect(await leftOf(other.projectId, ['ret-other-old'])).toMatchObject({ runs: 1, spans: 5 });

    for (const projectId of [server.projectId, other.projectId]) {
      const { stored, recomputed } = await storedAndRecomputedRollups(
        server.database.db,
        projectId,
      );
      expect(stored).toEqual(recomputed);
    }
    // The weekly report (twelve weeks, 45 days back and more) counts the runs that stay.
    const { weeks } = (await (await api('/api/v1/reports/weekly', server.key)).json()) as {
      weeks: { runs: number }[];
    };
    const remaining = await rawRows(
      server.database.db,
      sql`select id from runs where project_id = ${server.projectId}::uuid order by id`,
    );
    expect(remaining.map((r) => r.id)).toEqual(['del-b', 'del-c', ...kept]);
    expect(weeks.reduce((sum, week) => sum + week.runs, 0)).toBe(4);

    // A second sweep finds nothing to do.
    expect((await expireRuns(server.database.db)).removed.size).toBe(0);
  });

  it.runIf(kind === 'postgres')(
    'sweeps on one process at a time: another holding the retention lock makes it stand aside',
    async () => {
      await send(server.key, [{ runId: 'ret-locked', startMs: Date.now() - 20 * DAY }]);
      await server.settle();
      const second = await openDatabase({ databaseUrl: server.database.url });
      try {
        let release: () => void = () => {};
        const released = new Promise<void>((resolve) => (release = resolve));
        let held: () => void = () => {};
        const holding = new Promise<void>((resolve) => (held = resolve));
        const holder = second.db.transaction(async (tx) => {
          await tx.execute(
            sql`select pg_advisory_xact_lock(hashtextextended('loopscope:retention', 0))`,
          );
          held();
          await released;
        });
        await holding;
        const outcome = await expireRuns(server.database.db);
        expect(outcome).toEqual({ removed: new Map(), busy: true, droppedPartitions: [] });
        expect(await leftOf(server.projectId, ['ret-locked'])).toMatchObject({ runs: 1 });
        release();
        await holder;
        const after = await expireRuns(server.database.db);
        expect(after.removed.get(server.projectId)).toBe(1);
        expect(await leftOf(server.projectId, ['ret-locked'])).toEqual(none);
      } finally {
        await second.close();
      }
    },
  );
});

// Two Loopscope servers on one Postgres database, a real exporter sending to each (OTLP/HTTP to
// one, OTLP/gRPC to the other), runs whose traces go to both so both derivers race for them, and
// the HTTP one killed with SIGKILL mid-stream and restarted. After: every span stored once, every
// run derived once with the summary one derivation of all its spans gives, no mark lost, and
// every rollup equal to a fresh recomputation. Both sweep retention (every minute here): runs older
// than the project's 30 days, sent too, are gone by the end.
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { openDatabase } from '../db/client';
import { rawRows } from '../db/test-database';
import { storedAndRecomputedRollups } from '../db/write/test-rollups';
import { backlogLeft, freshlyDerived, runRows, storedSpans } from './support/derived-check';
import { createSender } from './support/otel';
import { emitRun, restartLoop } from './support/scenarios';
import { freePort, spawnServer } from './support/spawn-server';
import { expect, test } from './support/fixtures';

const KEY = 'lsk_two-servers-key-0123456789abcdef';
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const RUNS = 45;
const DAY = 86_400_000;

test('two servers on one database, one killed with SIGKILL: every span once, every run derived once and right, rollups exact', async () => {
  test.setTimeout(300_000);
  const name = `loopscope_two_${process.pid}_${Date.now()}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const env = {
    DATABASE_URL: url.toString(),
    LOOPSCOPE_INIT_API_KEY: KEY,
    LOOPSCOPE_RETENTION_SWEEP_MINUTES: '1',
  };
  const [portA, portB, grpcB] = [freePort(), freePort(), freePort()];
  // Both start at once: one migrates while the other waits for it.
  const started = await Promise.all([
    spawnServer(env, portA),
    spawnServer({ ...env, LOOPSCOPE_GRPC_PORT: String(grpcB) }, portB),
  ]);
  let serverA = started[0];
  const serverB = started[1];
  try {
    const emitted = new Set<string>();
    const toA = createSender({
      url: serverA.url,
      key: KEY,
      protocol: 'proto',
      gzip: true,
      emitted,
    });
    const toB = createSender({
      url: `http://127.0.0.1:${grpcB}`,
      key: KEY,
      protocol: 'grpc',
      gzip: true,
      emitted,
    });
    // Runs past the default 30 days: the servers' retention sweep removes them.
    const toOld = createSender({ url: serverB.url, key: KEY, protocol: 'proto' });
    for (let k = 0; k < 6; k++) {
      emitRun(toOld.tracer, restartLoop({ runId: `two-old-${k}`, startMs: Date.now() - 40 * DAY }));
    }
    await toOld.flush();
    await toOld.shutdown();
    // Every third run has a trace on each server (one run by `loop.run.id`): both derive it.
    const shared = (k: number) => k % 3 === 0;
    const emitting = (async () => {
      for (let k = 0; k < RUNS; k++) {
        const spec = restartLoop({ runId: `two-${k}` });
        emitRun(k % 2 === 0 ? toA.tracer : toB.tracer, spec);
        if (shared(k)) emitRun(k % 2 === 0 ? toB.tracer : toA.tracer, spec);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 900));
    await serverA.kill('SIGKILL');
    serverA = await spawnServer(env, portA);
    await emitting;
    await Promise.all([toA.flush(), toB.flush()]);
    await Promise.all([toA.shutdown(), toB.shutdown()]);

    const handle = await openDatabase({ databaseUrl: url.toString() });
    try {
      const db = handle.db;
      // Both servers' spool workers and derivers work the backlog off by themselves.
      await expect.poll(() => backlogLeft(db), { timeout: 60_000 }).toBe(0);
      expect(await rawRows(db, sql`select * from derive_failures`)).toEqual([]);
      const oldLeft = async () =>
        Number(
          (
            await rawRows(
              db,
              sql`select (select count(*) from runs where id like 'two-old-%')
                + (select count(*) from spans where attributes->>'loop.run.id' like 'two-old-%')
                + (select count(*) from trace_runs where run_id like 'two-old-%') as n`,
            )
          )[0]?.n ?? -1,
        );
      // The first sweep comes 30 s after a server starts.
      await expect.poll(oldLeft, { timeout: 90_000, intervals: [1000] }).toBe(0);

      const { rows: spanRows, ids: stored } = await storedSpans(db);
      const sharedRuns = [...Array(RUNS).keys()].filter(shared).length;
      expect(emitted.size).toBe((RUNS + sharedRuns) * 5);
      expect(spanRows).toBe(stored.size);
      expect([...emitted].filter((id) => !stored.has(id))).toEqual([]);
      expect(stored.size).toBe(emitted.size);

      const runs = await rawRows(
        db,
        sql`select id, project_id, span_count, step_count, exit_category from runs order by id`,
      );
      expect(runs).toHaveLength(RUNS);
      for (const run of runs) {
        const k = Number(String(run.id).slice('two-'.length));
        expect(run).toMatchObject({
          span_count: shared(k) ? 10 : 5,
          step_count: 4,
          exit_category: 'no_progress',
        });
      }
      const projectId = String(runs[0]?.project_id);
      const derived = await runRows(db);
      const fresh = await freshlyDerived(
        db,
        projectId,
        runs.map((r) => String(r.id)),
      );
      expect(derived).toEqual(fresh);
      const { stored: rollups, recomputed } = await storedAndRecomputedRollups(db, projectId);
      expect(rollups).toEqual(recomputed);
      expect(rollups.weekly_rollups?.length).toBeGreaterThan(0);
    } finally {
      await handle.close();
    }
  } finally {
    await Promise.all([serverA.kill('SIGTERM'), serverB.kill('SIGTERM')]);
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
});

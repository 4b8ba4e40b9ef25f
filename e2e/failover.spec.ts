// The database fails over under a stream of runs. A pg_auto_failover formation (a monitor, a
// primary and a synchronous standby) on this machine; two Loopscope servers on it through one
// multi-host URL with `target_session_attrs=read-write`, fed by real exporters (OTLP/HTTP to one,
// OTLP/gRPC to the other) and probed every 100 ms; the primary node killed (keeper and postmaster,
// SIGKILL) mid-stream. After: every acknowledged span stored exactly once, every run derived as
// one derivation of its spans gives, both servers serving again without a restart, and the time
// without service measured (BENCHMARKS.md, "Failover").
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { openDatabase } from '../db/client';
import { rawRows } from '../db/test-database';
import { createFormation } from './support/auto-failover';
import type { FormationNode } from './support/auto-failover';
import { backlogLeft, freshlyDerived, runRows, storedSpans } from './support/derived-check';
import { createSender } from './support/otel';
import { spanBatch } from './support/payloads';
import { emitRun, restartLoop } from './support/scenarios';
import { freePort, spawnServer } from './support/spawn-server';
import type { SpawnedServer } from './support/spawn-server';
import { expect, test } from './support/fixtures';

const KEY = 'lsk_failover-test-key-0123456789abcdef';
const RUNS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Probe {
  server: string;
  kind: 'write' | 'read';
  sentMs: number;
  answeredMs: number;
  status: number;
  id: string;
}

/**
 * Every 100 ms until told to stop, what a client sees of one server: an export of one span
 * (`write`) and a read of the runs list (`read`).
 */
function probe(server: SpawnedServer, probes: Probe[], running: () => boolean): Promise<void> {
  const ask = async (kind: Probe['kind']) => {
    const { body, ids } = spanBatch(1, { stepsPerRun: 1 });
    const sentMs = Date.now();
    const status = await fetch(
      kind === 'write' ? `${server.url}/v1/traces` : `${server.url}/api/v1/runs?limit=1`,
      {
        method: kind === 'write' ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: kind === 'write' ? body : undefined,
        signal: AbortSignal.timeout(15_000),
      },
    ).then(
      (response) => response.status,
      () => 0,
    );
    const id = kind === 'write' ? (ids[0] ?? '') : '';
    probes.push({ server: server.url, kind, sentMs, answeredMs: Date.now(), status, id });
  };
  return (async () => {
    while (running()) {
      await Promise.all([ask('write'), ask('read')]);
      await sleep(100);
    }
  })();
}

/** The longest time one server refused or failed requests: first refused send to next success. */
function longestOutageMs(probes: Probe[]): number {
  let longest = 0;
  let since: number | null = null;
  for (const p of probes) {
    if (p.status !== 200) since ??= p.sentMs;
    else if (since !== null) {
      longest = Math.max(longest, p.answeredMs - since);
      since = null;
    }
  }
  return longest;
}

test('the database fails over mid-stream: every acknowledged span stored once, every run derived right, both servers back without a restart', async ({}, testInfo) => {
  test.setTimeout(420_000);
  const formation = await createFormation({
    monitor: freePort(),
    nodes: [freePort(), freePort()],
    // FAILOVER_TIMING=default measures the monitor's own clock (BENCHMARKS.md gives both).
    defaultTiming: process.env.FAILOVER_TIMING === 'default',
  });
  const servers: SpawnedServer[] = [];
  try {
    const first = await formation.waitForPrimary();
    const admin = postgres(`postgres://postgres@127.0.0.1:${first.port}/postgres`, {
      max: 1,
      onnotice: () => {},
    });
    await admin.unsafe('create database loopscope');
    await admin.end();
    const url = formation.url('loopscope');
    const env = { DATABASE_URL: url, LOOPSCOPE_INIT_API_KEY: KEY };
    const grpcB = freePort();
    servers.push(
      ...(await Promise.all([
        spawnServer(env, freePort()),
        spawnServer({ ...env, LOOPSCOPE_GRPC_PORT: String(grpcB) }, freePort()),
      ])),
    );
    const [serverA, serverB] = servers as [SpawnedServer, SpawnedServer];

    const emitted = new Set<string>();
    const acknowledged = new Map<string, number>();
    const senders = [
      createSender({
        url: serverA.url,
        key: KEY,
        protocol: 'proto',
        gzip: true,
        emitted,
        acknowledged,
      }),
      createSender({
        url: `http://127.0.0.1:${grpcB}`,
        key: KEY,
        protocol: 'grpc',
        gzip: true,
        emitted,
        acknowledged,
      }),
    ];
    const probes: Probe[] = [];
    let probing = true;
    const probers = [serverA, serverB].map((server) => probe(server, probes, () => probing));
    const emitting = (async () => {
      for (let k = 0; k < RUNS; k++) {
        emitRun(senders[k % 2]!.tracer, restartLoop({ runId: `failover-${k}` }));
        await sleep(250);
      }
    })();

    await sleep(2_500);
    const killedMs = Date.now();
    formation.kill(first);
    let promoted: FormationNode = first;
    while (promoted.name === first.name) {
      await sleep(200);
      promoted = await formation.waitForPrimary(90_000);
    }
    const promotedMs = Date.now();
    await emitting;
    await Promise.all(senders.map((s) => s.flush()));
    await Promise.all(senders.map((s) => s.shutdown()));
    // Served again by the processes that were running all along.
    for (const server of servers) {
      await expect
        .poll(async () => (await fetch(`${server.url}/api/health`)).status, { timeout: 60_000 })
        .toBe(200);
      expect(server.process.exitCode).toBeNull();
    }
    await sleep(1_000);
    probing = false;
    await Promise.all(probers);

    const handle = await openDatabase({ databaseUrl: url });
    try {
      const db = handle.db;
      await expect.poll(() => backlogLeft(db), { timeout: 60_000 }).toBe(0);
      expect(await rawRows(db, sql`select * from derive_failures`)).toEqual([]);

      const { rows, ids: stored } = await storedSpans(db);
      expect(rows, 'each span stored once').toBe(stored.size);
      const writes = probes.filter((p) => p.kind === 'write');
      const acknowledgedProbes = writes.filter((p) => p.status === 200).map((p) => p.id);
      const everyAcknowledged = [...acknowledged.keys(), ...acknowledgedProbes];
      expect(everyAcknowledged.filter((id) => !stored.has(id))).toEqual([]);
      // The exporters retried through the failover: they gave up on nothing.
      expect(emitted.size).toBe(RUNS * 5);
      expect([...emitted].filter((id) => !acknowledged.has(id))).toEqual([]);
      // A probe refused (503) or cut off in the failover may still have been stored: never twice.
      expect(stored.size).toBeGreaterThanOrEqual(emitted.size + acknowledgedProbes.length);

      const runs = await rawRows(
        db,
        sql`select id, project_id, span_count, step_count, exit_category from runs
            where id like 'failover-%' order by id`,
      );
      expect(runs).toHaveLength(RUNS);
      for (const run of runs) {
        expect(run).toMatchObject({ span_count: 5, step_count: 4, exit_category: 'no_progress' });
      }
      const projectId = String(runs[0]?.project_id);
      const all = await rawRows(db, sql`select id from runs order by id`);
      const derived = await runRows(db);
      const fresh = await freshlyDerived(
        db,
        projectId,
        all.map((r) => String(r.id)),
      );
      expect(derived).toEqual(fresh);

      const outage = (kind: Probe['kind']) =>
        [serverA, serverB].map((s) =>
          longestOutageMs(probes.filter((p) => p.server === s.url && p.kind === kind)),
        );
      // While no node was primary: from the kill to the promotion.
      const during = (t: number) => t >= killedMs && t <= promotedMs;
      const figures = {
        promotedAfterMs: promotedMs - killedMs,
        writesWithoutServiceMs: outage('write'),
        readsWithoutServiceMs: outage('read'),
        slowestWriteMs: Math.max(...writes.map((p) => p.answeredMs - p.sentMs)),
        spansAcknowledgedDuringFailover:
          [...acknowledged.values()].filter(during).length +
          writes.filter((p) => p.status === 200 && during(p.answeredMs)).length,
        spansAcknowledged: everyAcknowledged.length,
        refusedWrites: writes.filter((p) => p.status !== 200).length,
        lost: everyAcknowledged.filter((id) => !stored.has(id)).length,
        duplicated: rows - stored.size,
      };
      console.log(`failover figures: ${JSON.stringify(figures)}`);
      await testInfo.attach('failover-figures.json', {
        body: JSON.stringify(figures, null, 2),
        contentType: 'application/json',
      });
      // The door took every request through the failover; reads were back once it was over.
      expect(figures.refusedWrites).toBe(0);
      for (const server of servers) {
        const reads = probes.filter((p) => p.server === server.url && p.kind === 'read');
        expect(reads.at(-1)?.status).toBe(200);
      }
    } finally {
      await handle.close();
    }
  } finally {
    await Promise.all(servers.map((s) => s.kill('SIGTERM')));
    await formation.destroy();
  }
});

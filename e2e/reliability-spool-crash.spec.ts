// kill -9 while the spool holds a backlog: requests answered 200 but not yet expanded into spans
// are in ingest_spool (a worker's transaction may be mid-way), and the next start works them off. Real exporters (OTLP/HTTP protobuf and
// OTLP/gRPC, so both transports go through the spool) retry what the killed server never
// answered; every span they emitted is stored exactly once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client';
import { rawRows } from '../db/test-database';
import { freshDatabase } from './support/fresh-database';
import type { FreshDatabase } from './support/fresh-database';
import { createSender } from './support/otel';
import type { Sender } from './support/otel';
import { emitRun, restartLoop } from './support/scenarios';
import { freePort, spawnServer } from './support/spawn-server';
import { expect, test } from './support/fixtures';

const KEY = 'lsk_spool-crash-key-0123456789abcdef';
const SENDERS = 6;
const RUNS_PER_SENDER = 400;

interface SpoolHealth {
  requests: number;
  bytes: number;
  oldestAgeSeconds: number;
  stuck: number;
}

async function spoolHealth(url: string): Promise<SpoolHealth | null> {
  try {
    const response = await fetch(`${url}/api/health`);
    if (response.status !== 200) return null;
    return ((await response.json()) as { spool: SpoolHealth }).spool;
  } catch {
    return null;
  }
}

async function storedSpans(config: { dataDir?: string; databaseUrl?: string }) {
  const handle = await openDatabase(config);
  try {
    const rows = await rawRows(handle.db, sql`select trace_id || ':' || span_id as id from spans`);
    const [spool] = await rawRows(handle.db, sql`select count(*)::int as n from ingest_spool`);
    return { total: rows.length, ids: new Set(rows.map((r) => String(r.id))), spooled: spool?.n };
  } finally {
    await handle.close();
  }
}

for (const kind of ['pglite', 'postgres'] as const) {
  test(`kill -9 with requests waiting in the spool on ${kind}: the next start stores every emitted span exactly once`, async () => {
    test.setTimeout(240_000);
    const dir = mkdtempSync(path.join(tmpdir(), 'loopscope-spool-crash-'));
    const config: { dataDir?: string; databaseUrl?: string } = {};
    // Its own database on the Postgres server, dropped when the test ends however it ends.
    let database: FreshDatabase | undefined;
    const grpcPort = freePort();
    const env: Record<string, string> = {
      LOOPSCOPE_INIT_API_KEY: KEY,
      LOOPSCOPE_GRPC_PORT: String(grpcPort),
    };
    if (kind === 'pglite') {
      config.dataDir = path.join(dir, 'data');
      env.LOOPSCOPE_DATA_DIR = config.dataDir;
    } else {
      database = await freshDatabase('postgres', 'spool_crash');
      config.databaseUrl = database.env.DATABASE_URL;
      env.DATABASE_URL = config.databaseUrl!;
      env.LOOPSCOPE_DATA_DIR = path.join(dir, 'data');
    }
    try {
      const port = freePort();
      let server = await spawnServer(env, port);
      const emitted = new Set<string>();
      const senders: Sender[] = Array.from({ length: SENDERS }, (_, k) =>
        createSender({
          url: k % 2 === 0 ? server.url : `http://127.0.0.1:${grpcPort}`,
          key: KEY,
          protocol: k % 2 === 0 ? 'proto' : 'grpc',
          gzip: true,
          emitted,
        }),
      );

      // The burst: every sender emits its runs at once, far faster than they can be expanded, and
      // every export is answered 200 (the spool took it) before the kill.
      const burst = (round: number) => {
        for (let r = 0; r < RUNS_PER_SENDER; r++) {
          senders.forEach((sender, k) =>
            emitRun(sender.tracer, restartLoop({ runId: `spool-${kind}-${round}-${k}-${r}` })),
          );
        }
      };
      burst(0);
      await Promise.all(senders.map((s) => s.flush()));
      const seen = await spoolHealth(server.url);
      expect(seen?.requests, 'requests waiting in the spool at the kill').toBeGreaterThan(0);
      await server.kill('SIGKILL');
      const left = await storedSpans(config);
      expect(left.spooled, 'requests still spooled after the kill').toBeGreaterThan(0);
      expect(left.total, 'spans stored at the kill').toBeLessThan(SENDERS * RUNS_PER_SENDER * 5);

      server = await spawnServer(env, port);
      // The next burst meets the restarted server while it works off the first.
      burst(1);
      await Promise.all(senders.map((s) => s.flush()));
      await Promise.all(senders.map((s) => s.shutdown()));
      const drainedBy = Date.now() + 120_000;
      let health = await spoolHealth(server.url);
      while (Date.now() < drainedBy && health?.requests !== 0) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        health = await spoolHealth(server.url);
      }
      expect(health).toMatchObject({ requests: 0, stuck: 0 });
      await server.kill('SIGTERM');

      const stored = await storedSpans(config);
      expect(emitted.size).toBe(2 * SENDERS * RUNS_PER_SENDER * 5);
      expect(stored.total).toBe(stored.ids.size);
      expect([...emitted].filter((id) => !stored.ids.has(id))).toEqual([]);
      expect(stored.total).toBe(emitted.size);
    } finally {
      await database?.drop();
    }
  });
}

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client';
import { rawRows } from '../db/test-database';
import { freshDatabase } from './support/fresh-database';
import type { FreshDatabase } from './support/fresh-database';
import { createSender } from './support/otel';
import { emitRun, restartLoop } from './support/scenarios';
import { freePort, spawnServer, spoolDrained } from './support/spawn-server';
import { expect, test } from './support/fixtures';

const KEY = 'lsk_crash-test-key-0123456789abcdef';

async function storedSpans(config: {
  dataDir?: string;
  databaseUrl?: string;
}): Promise<{ total: number; ids: Set<string> }> {
  const handle = await openDatabase(config);
  try {
    const rows = await rawRows(handle.db, sql`select trace_id || ':' || span_id as id from spans`);
    return { total: rows.length, ids: new Set(rows.map((r) => String(r.id))) };
  } finally {
    await handle.close();
  }
}

for (const kind of ['pglite', 'postgres'] as const) {
  test(`kill -9 during ingest from a real exporter on ${kind}: every emitted span is stored exactly once`, async () => {
    test.setTimeout(180_000);
    const dir = mkdtempSync(path.join(tmpdir(), 'loopscope-crash-'));
    const config: { dataDir?: string; databaseUrl?: string } = {};
    // Its own database on the Postgres server, dropped when the test ends however it ends.
    let database: FreshDatabase | undefined;
    const env: Record<string, string> = { LOOPSCOPE_INIT_API_KEY: KEY };
    if (kind === 'pglite') {
      config.dataDir = path.join(dir, 'data');
      env.LOOPSCOPE_DATA_DIR = config.dataDir;
    } else {
      database = await freshDatabase('postgres', 'crash');
      config.databaseUrl = database.env.DATABASE_URL;
      env.DATABASE_URL = config.databaseUrl!;
    }
    try {
      const port = freePort();
      let server = await spawnServer(env, port);
      const emitted = new Set<string>();
      const sender = createSender({
        url: server.url,
        key: KEY,
        protocol: 'proto',
        gzip: true,
        emitted,
      });

      const emitting = (async () => {
        for (let k = 0; k < 60; k++) {
          emitRun(sender.tracer, restartLoop({ runId: `crash-${kind}-${k}` }));
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 900));
      await server.kill('SIGKILL');
      server = await spawnServer(env, port);
      await emitting;
      await sender.flush();
      await sender.shutdown();
      await spoolDrained(server.url);
      await server.kill('SIGTERM');

      const stored = await storedSpans(config);
      expect(emitted.size).toBe(60 * 5);
      expect(stored.total).toBe(stored.ids.size);
      expect([...emitted].filter((id) => !stored.ids.has(id))).toEqual([]);
      expect(stored.total).toBe(emitted.size);
    } finally {
      await database?.drop();
    }
  });
}

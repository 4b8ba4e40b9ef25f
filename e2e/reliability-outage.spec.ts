import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client';
import { rawRows } from '../db/test-database';
import { createSender } from './support/otel';
import { emitRun, restartLoop } from './support/scenarios';
import { freePort, spawnServer, spoolDrained } from './support/spawn-server';
import { createThrowawayPostgres } from './support/throwaway-postgres';
import { expect, test } from './support/fixtures';

const KEY = 'lsk_outage-test-key-0123456789abcdef';

test('the database stops mid-ingest: 503 with Retry-After, health 503, and ingest resumes by itself with nothing lost or duplicated', async () => {
  test.setTimeout(240_000);
  const pg = createThrowawayPostgres(freePort());
  pg.start();
  try {
    const server = await spawnServer(
      { DATABASE_URL: pg.url, LOOPSCOPE_INIT_API_KEY: KEY },
      freePort(),
    );
    const emitted = new Set<string>();
    const sender = createSender({
      url: server.url,
      key: KEY,
      protocol: 'proto',
      gzip: true,
      emitted,
    });
    const emitting = (async () => {
      for (let k = 0; k < 40; k++) {
        emitRun(sender.tracer, restartLoop({ runId: `outage-${k}` }));
        await new Promise((resolve) => setTimeout(resolve, 75));
      }
    })();

    await new Promise((resolve) => setTimeout(resolve, 800));
    pg.stop();
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(503);
    const refused = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"resourceSpans":[]}',
    });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    await new Promise((resolve) => setTimeout(resolve, 2500));
    pg.start();
    await expect
      .poll(async () => (await fetch(`${server.url}/api/health`)).status, { timeout: 30_000 })
      .toBe(200);
    await emitting;
    await sender.flush();
    await sender.shutdown();
    await spoolDrained(server.url);
    await server.kill('SIGTERM');

    const handle = await openDatabase({ databaseUrl: pg.url });
    const rows = await rawRows(handle.db, sql`select trace_id || ':' || span_id as id from spans`);
    await handle.close();
    const stored = new Set(rows.map((r) => String(r.id)));
    expect(rows.length).toBe(stored.size);
    expect([...emitted].filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(40 * 5);
    expect(server.output()).not.toMatch(/ingest failed on the server/);
  } finally {
    pg.destroy();
  }
});

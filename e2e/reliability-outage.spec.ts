import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { storedSpansAt } from './support/derived-check';
import { createSender } from './support/otel';
import { spanBatch } from './support/payloads';
import { emitRun, restartLoop } from './support/scenarios';
import { freePort, spawnServer, spoolDrained } from './support/spawn-server';
import { createThrowawayPostgres } from './support/throwaway-postgres';
import { expect, test } from './support/fixtures';

const KEY = 'lsk_outage-test-key-0123456789abcdef';

test('the database stops mid-ingest: known keys held on disk, others 503 with Retry-After, health 503, and all stored once it is back', async () => {
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
    // A key this server has not let in lately cannot be checked: 503 with Retry-After.
    const refused = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer lsk_never-seen-key-0123456789abcdef',
        'content-type': 'application/json',
      },
      body: '{"resourceSpans":[]}',
    });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The key it let in is let in again: its spans are held on disk and acknowledged.
    const held = spanBatch(3, { stepsPerRun: 3 });
    const heldResponse = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: held.body,
    });
    expect(heldResponse.status).toBe(200);

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

    const { rows, ids: stored } = await storedSpansAt(pg.url);
    expect(rows).toBe(stored.size);
    expect([...emitted, ...held.ids].filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(40 * 5 + 3);
    expect(server.output()).toMatch(/request\(s\) held while the database was away are spooled/);
    expect(server.output()).not.toMatch(/ingest failed on the server/);
  } finally {
    pg.destroy();
  }
});

test('requests held on disk while the database is away survive SIGKILL: the next start stores them once', async () => {
  test.setTimeout(180_000);
  const pg = createThrowawayPostgres(freePort());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loopscope-held-'));
  pg.start();
  try {
    const env = { DATABASE_URL: pg.url, LOOPSCOPE_INIT_API_KEY: KEY, LOOPSCOPE_DATA_DIR: dataDir };
    const port = freePort();
    let server = await spawnServer(env, port);
    const post = (body: string) =>
      fetch(`${server.url}/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body,
      });
    // The key is let in once while the database answers, then the database goes.
    expect((await post(spanBatch(2, { stepsPerRun: 2 }).body)).status).toBe(200);
    await spoolDrained(server.url);
    pg.stop();
    const batches = [...Array(5).keys()].map(() => spanBatch(4, { stepsPerRun: 4 }));
    for (const batch of batches) expect((await post(batch.body)).status).toBe(200);
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as {
      onDisk: { requests: number };
    };
    expect(health.onDisk.requests).toBe(5);
    await server.kill('SIGKILL');

    pg.start();
    server = await spawnServer(env, port);
    await spoolDrained(server.url);
    await server.kill('SIGTERM');
    const { rows, ids: stored } = await storedSpansAt(pg.url);
    expect(rows).toBe(stored.size);
    const heldIds = batches.flatMap((b) => b.ids);
    expect(heldIds.filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(2 + heldIds.length);
    expect(
      readdirSync(path.join(dataDir, 'held')).filter((name) => name.endsWith('.held')),
    ).toEqual([]);
  } finally {
    pg.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

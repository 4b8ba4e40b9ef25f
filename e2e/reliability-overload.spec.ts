import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client';
import { rawRows } from '../db/test-database';
import { spanBatch } from './support/payloads';
import { freePort, spawnServer, spoolDrained } from './support/spawn-server';
import { expect, test } from './support/fixtures';

const KEY = 'lsk_overload-test-key-0123456789abcdef';

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

test('past what it can take, ingest answers 429 with Retry-After, keeps memory bounded and never accepts what it drops', async () => {
  test.setTimeout(240_000);
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'loopscope-load-')), 'data');
  const server = await spawnServer(
    {
      LOOPSCOPE_DATA_DIR: dataDir,
      LOOPSCOPE_INIT_API_KEY: KEY,
      LOOPSCOPE_INGEST_CONCURRENCY: '1',
      LOOPSCOPE_INGEST_QUEUE: '4',
    },
    freePort(),
  );
  const pid = server.process.pid ?? 0;
  const send = async (body: string) => {
    const response = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    });
    await response.arrayBuffer();
    return { status: response.status, retryAfter: response.headers.get('retry-after') };
  };

  // Warm up and measure steady state one request at a time.
  for (let k = 0; k < 5; k++) expect((await send(spanBatch(300).body)).status).toBe(200);
  const steadyRss = rssMb(pid);

  const acknowledged = new Set<string>();
  const statuses: number[] = [];
  let peakRss = steadyRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 50);
  for (let wave = 0; wave < 6; wave++) {
    const batches = Array.from({ length: 24 }, () => spanBatch(300));
    const results = await Promise.all(batches.map((b) => send(b.body)));
    results.forEach((result, k) => {
      statuses.push(result.status);
      if (result.status === 200) for (const id of batches[k]!.ids) acknowledged.add(id);
      else expect(Number(result.retryAfter)).toBeGreaterThan(0);
    });
  }
  clearInterval(sampler);
  // Acknowledged means committed in the spool; the spans are counted once it is worked off.
  await spoolDrained(server.url);
  await server.kill('SIGTERM');

  const refusedShare = statuses.filter((s) => s === 429).length / statuses.length;
  const summary = `overload: ${statuses.length} requests, ${(refusedShare * 100).toFixed(0)}% answered 429 with Retry-After; RSS steady ${steadyRss.toFixed(0)} MB, peak ${peakRss.toFixed(0)} MB (×${(peakRss / steadyRss).toFixed(2)})`;
  console.log(summary);
  test.info().annotations.push({ type: 'overload', description: summary });
  expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(10);
  expect(peakRss / steadyRss).toBeLessThan(1.5);

  const handle = await openDatabase({ dataDir });
  const rows = await rawRows(
    handle.db,
    sql`select trace_id || ':' || span_id as id from spans where resource->>'service.name' = 'load'`,
  );
  await handle.close();
  const stored = new Set(rows.map((r) => String(r.id)));
  // 5 warm-up batches of 300, then every acknowledged span, and nothing that was refused
  expect(stored.size).toBe(acknowledged.size + 5 * 300);
  expect([...acknowledged].every((id) => stored.has(id))).toBe(true);
});

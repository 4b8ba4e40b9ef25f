// The dashboard says how far behind storing is: with requests answered 200 and still waiting in
// the spool (here held by a transaction of the test's, which the workers skip), every page shows
// "N requests behind"; once the workers have stored them the notice goes by itself.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { freshDatabase } from './support/fresh-database';
import { spanBatch } from './support/payloads';
import { freePort, spawnServer, spoolDrained } from './support/spawn-server';
import { expect, test } from './support/fixtures';

const KEY = 'lsk_backlog-test-key-0123456789abcdef';
// More than a read stores itself before answering (32), so the page answers from what is stored.
const WAITING = 80;

test('while requests wait in the spool the dashboard shows "N requests behind", and not after', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const database = await freshDatabase('postgres', 'backlog');
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'loopscope-backlog-')), 'data');
  const server = await spawnServer(
    { ...database.env, LOOPSCOPE_DATA_DIR: dataDir, LOOPSCOPE_INIT_API_KEY: KEY },
    freePort(),
  );
  const sql = postgres(database.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let holding: Promise<unknown> | null = null;
  try {
    const [project] = await sql<{ id: string }[]>`select id from projects where name = 'default'`;
    const batches = Array.from({ length: WAITING }, () => spanBatch(3));
    const rows = batches.map((b) => ({
      project_id: project!.id,
      format: 'json',
      body: Buffer.from(b.body),
      bytes: b.body.length,
    }));
    await sql`insert into ingest_spool ${sql(rows)}`;
    // Workers behind: a SHARE lock lets them claim rows and store spans but not delete the rows,
    // so their transactions wait and every request stays in the spool; reads still count it.
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    holding = sql.begin(async (tx) => {
      await tx`lock table ingest_spool in share mode`;
      locked();
      await held;
    });
    await isLocked;

    const health = (await (await fetch(`${server.url}/api/health`)).json()) as {
      spool: { requests: number };
    };
    // A few requests may have been stored between their insert and the lock.
    const behind = health.spool.requests;
    expect(behind).toBeGreaterThan(32);
    await page.goto(`${server.url}/`);
    await expect(page.getByRole('status').filter({ hasText: 'requests behind' })).toHaveText(
      new RegExp(`^${behind} requests behind`),
    );

    release();
    await holding;
    holding = null;
    await spoolDrained(server.url);
    await expect(page.getByText('requests behind')).toHaveCount(0, { timeout: 15_000 });
    const [stored] = await sql<{ n: number }[]>`select count(*)::int as n from spans`;
    expect(stored!.n).toBe(batches.reduce((n, b) => n + b.ids.length, 0));
  } finally {
    release();
    await holding?.catch(() => {});
    await sql.end();
    await server.kill('SIGTERM');
    await database.drop();
  }
});

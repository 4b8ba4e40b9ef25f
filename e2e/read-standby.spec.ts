// The dashboard's reads on a standby (DATABASE_READ_URL). A pg_auto_failover formation's
// synchronous standby serves a built server's pages while ingest writes to the primary: the page
// says so and how far behind it is, the standby's own statistics show the reads, and when the
// standby goes the reads go back to the primary by themselves, the page saying why.
import postgres from 'postgres';
import { createFormation } from './support/auto-failover';
import { createSender } from './support/otel';
import { emitRun, restartLoop } from './support/scenarios';
import { keepScreen } from './support/screens';
import { freePort, spawnServer, spoolDrained } from './support/spawn-server';
import type { SpawnedServer } from './support/spawn-server';
import { expect, test } from './support/fixtures';

const KEY = 'lsk_standby-test-key-0123456789abcdef';
const RUNS = 6;

interface Reads {
  from: 'standby' | 'primary';
  lagSeconds: number | null;
  reason: string | null;
}

async function readsOf(server: SpawnedServer): Promise<Reads | null> {
  const response = await fetch(`${server.url}/api/health`);
  return ((await response.json()) as { reads?: Reads | null }).reads ?? null;
}

test('dashboard reads go to the standby with its lag shown, and back to the primary when it goes', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const formation = await createFormation({ monitor: freePort(), nodes: [freePort(), freePort()] });
  let server: SpawnedServer | null = null;
  try {
    const primary = await formation.waitForPrimary();
    const standbyNode = formation.nodes.find((n) => n.name !== primary.name)!;
    const admin = postgres(`postgres://postgres@127.0.0.1:${primary.port}/postgres`, {
      max: 1,
      onnotice: () => {},
    });
    await admin.unsafe('create database loopscope');
    await admin.end();
    const standbyUrl = `postgres://postgres@127.0.0.1:${standbyNode.port}/loopscope`;
    server = await spawnServer(
      {
        DATABASE_URL: formation.url('loopscope'),
        DATABASE_READ_URL: standbyUrl,
        LOOPSCOPE_INIT_API_KEY: KEY,
      },
      freePort(),
    );
    const running = server;
    const sender = createSender({ url: running.url, key: KEY, protocol: 'proto', gzip: true });
    for (let k = 0; k < RUNS; k++) emitRun(sender.tracer, restartLoop({ runId: `standby-${k}` }));
    await sender.shutdown();
    await spoolDrained(running.url);

    await expect
      .poll(async () => (await readsOf(running))?.from, { timeout: 30_000 })
      .toBe('standby');
    const reads = await readsOf(running);
    expect(reads?.lagSeconds).not.toBeNull();
    expect(reads?.lagSeconds ?? Infinity).toBeLessThan(5);

    const standby = postgres(standbyUrl, { max: 1, onnotice: () => {} });
    const commitsOnStandby = async () =>
      Number(
        (
          await standby<{ n: string }[]>`
            select xact_commit::text as n from pg_stat_database where datname = 'loopscope'`
        )[0]?.n ?? 0,
      );
    const before = await commitsOnStandby();
    await page.goto(running.url);
    await expect(
      page.getByRole('link', { name: new RegExp(`^No progress: ${RUNS} runs`) }),
    ).toBeVisible();
    await expect(page.getByTestId('reads-from')).toHaveText(
      /^Read from a standby, (up to date|[\d.]+ s behind)$/,
    );
    // Statistics reach pg_stat_database when a backend goes idle, within a second or so.
    await expect.poll(commitsOnStandby, { timeout: 10_000 }).toBeGreaterThan(before + 2);
    await standby.end();
    await keepScreen(page, testInfo, 'reads-from-standby');

    formation.kill(standbyNode);
    await expect
      .poll(async () => (await readsOf(running))?.from, { timeout: 30_000 })
      .toBe('primary');
    expect((await readsOf(running))?.reason).toMatch(/^the standby does not answer/);
    await page.goto(running.url);
    await expect(
      page.getByRole('link', { name: new RegExp(`^No progress: ${RUNS} runs`) }),
    ).toBeVisible();
    await expect(page.getByTestId('reads-from')).toContainText(
      'Read from the primary · the standby does not answer',
    );
    await keepScreen(page, testInfo, 'reads-from-primary');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await keepScreen(page, testInfo, 'reads-from-primary-phone-dark');
  } finally {
    await server?.kill('SIGTERM');
    await formation.destroy();
  }
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { ensureProject } from '../db/projects';
import { rawRows } from '../db/test-database';
import { createTestDatabase, TEST_DATABASE_KINDS } from '../db/test-database';
import { loopSettings } from '../lib/settings';
import { deriveRuns } from './derive-runs';
import { deriveMarkedRuns } from './derive-marked-runs';
import { endIdleRuns } from './end-idle-runs';
import { ingestSpans } from '../ingest/ingest-spans';
import { span, TEST_PRICE_TABLE, TRACE } from '../ingest/test-spans';

describe.each(TEST_DATABASE_KINDS)('idle runs on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  const context = { prices: TEST_PRICE_TABLE, settings: loopSettings({ idleTimeoutMinutes: 30 }) };
  const run = async () =>
    (
      await rawRows(
        handle.db,
        sql`select exit_category, unexplained_stop, ended_at from runs where id = ${TRACE}`,
      )
    )[0];

  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'default');
  });
  afterAll(() => handle?.close());

  it('a run whose root never comes stays running, ends unknown after the idle timeout, and resumes with a new span', async () => {
    await ingestSpans(handle.db, projectId, [
      span(2, 1, 'step', 1000, 2000, { 'loop.step': 1, 'loop.action': 'a' }),
    ]);
    expect(await deriveMarkedRuns(handle.db, context)).toBe(1);
    expect(await endIdleRuns(handle.db, context)).toBe(0);
    expect(await run()).toMatchObject({
      exit_category: 'running',
      unexplained_stop: false,
      ended_at: null,
    });

    await handle.db.execute(sql`update runs set last_received_at = now() - interval '31 minutes'`);
    expect(await endIdleRuns(handle.db, context)).toBe(1);
    expect(await run()).toMatchObject({ exit_category: 'unknown', unexplained_stop: true });
    expect((await run())?.ended_at).not.toBeNull();

    await ingestSpans(handle.db, projectId, [
      span(3, 1, 'step', 2000, 3000, { 'loop.step': 2, 'loop.action': 'b' }),
    ]);
    // marked but not derived yet: the sweep must not end it on its old arrival time
    await handle.db.execute(sql`update runs set last_received_at = now() - interval '31 minutes'`);
    expect(await endIdleRuns(handle.db, context)).toBe(0);
    expect(await deriveMarkedRuns(handle.db, context)).toBe(1);
    expect(await run()).toMatchObject({ exit_category: 'running', unexplained_stop: false });
  });

  it('a run a sweep chose but that received a span since is left running', async () => {
    await handle.db.transaction((tx) =>
      deriveRuns(tx, projectId, [TRACE], context, { idle: true }),
    );
    expect(await run()).toMatchObject({ exit_category: 'running' });
  });
});

// Writing a run's steps again rewrites only what changed, and leaves exactly the rows a full
// rewrite would: new steps added, changed ones replaced, gone ones removed, old rows (no digest,
// or a position stored twice) rewritten once. On both databases.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { createTestDatabase, rawRows, TEST_DATABASE_KINDS } from '../test-database';
import { replaceSteps } from './save-steps';
import type { StepRow } from './save-steps';
import { testStepRow as step } from './test-step-row';

describe.each(TEST_DATABASE_KINDS)('replacing steps on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'save-steps');
  });
  afterAll(() => handle?.close());

  // Each row's version (xmin changes when a row is written) and what a read sees of it.
  const stored = async (runId: string) =>
    rawRows(
      handle.db,
      sql`select ordinal, xmin::text as version, action, start_ms, signals, fingerprint
        from steps where project_id = ${projectId}::uuid and run_id = ${runId}
        order by ordinal, start_ms`,
    );
  const write = (runIds: string[], rows: StepRow[], droppedBeforeMs?: number) =>
    handle.db.transaction((tx) => replaceSteps(tx, projectId, runIds, rows, droppedBeforeMs));

  it('adds a step without touching the steps before it, and replaces one that changed', async () => {
    const run = Array.from({ length: 5 }, (_, k) => step('grow', k + 1));
    await write(['grow'], run);
    const first = await stored('grow');
    expect(first.map((r) => r.ordinal)).toEqual([1, 2, 3, 4, 5]);
    expect(first.every((r) => typeof r.fingerprint === 'string')).toBe(true);

    // Step 3 is now a repeat, and step 6 arrived.
    run[2] = step('grow', 3, { signals: ['repeat'], repeatOf: 2 });
    await write(['grow'], [...run, step('grow', 6)]);
    const second = await stored('grow');
    expect(second.map((r) => r.ordinal)).toEqual([1, 2, 3, 4, 5, 6]);
    const unchanged = [0, 1, 3, 4];
    for (const k of unchanged) expect(second[k]!.version).toBe(first[k]!.version);
    expect(second[2]!.version).not.toBe(first[2]!.version);
    expect(second[2]!.signals).toEqual(['repeat']);
  });

  it('removes the steps a derivation no longer has, and every step of a run left with none', async () => {
    await write(
      ['shrink', 'vanish'],
      [...Array.from({ length: 4 }, (_, k) => step('shrink', k + 1)), step('vanish', 1)],
    );
    // Its spans regrouped: three steps, the second starting elsewhere (another weekly partition).
    await write(
      ['shrink', 'vanish'],
      [
        step('shrink', 1),
        step('shrink', 2, { startMs: 1_790_000_000_000 + 30 * 86_400_000, action: 'moved' }),
        step('shrink', 3),
      ],
    );
    const rows = await stored('shrink');
    expect(rows.map((r) => [r.ordinal, r.action])).toEqual([
      [1, 'edit'],
      [2, 'moved'],
      [3, 'edit'],
    ]);
    expect(await stored('vanish')).toEqual([]);
  });

  it('rewrites rows stored before digests, and a position stored twice, once', async () => {
    await write(['legacy'], [step('legacy', 1), step('legacy', 2)]);
    await handle.db.execute(sql`update steps set fingerprint = null
      where project_id = ${projectId}::uuid and run_id = 'legacy' and ordinal = 1`);
    // A second copy of step 2 under another start time (the key includes it).
    await handle.db.execute(sql`insert into steps (project_id, run_id, ordinal, index, trace_id,
        span_id, name, start_ms, cost_usd, input_tokens, output_tokens, signals)
      values (${projectId}::uuid, 'legacy', 2, 2, 'x', 'y', 'stale copy', 5, 0, 0, 0, '{}')`);
    await write(['legacy'], [step('legacy', 1), step('legacy', 2)]);
    const rows = await stored('legacy');
    expect(rows.map((r) => [r.ordinal, r.action])).toEqual([
      [1, 'edit'],
      [2, 'edit'],
    ]);
    expect(rows.every((r) => typeof r.fingerprint === 'string')).toBe(true);
    const again = await stored('legacy');
    await write(['legacy'], [step('legacy', 1), step('legacy', 2)]);
    expect((await stored('legacy')).map((r) => r.version)).toEqual(again.map((r) => r.version));
  });

  it('rewrites every step past the cutoff when retention is about to drop older partitions', async () => {
    await write(['swept'], [step('swept', 1), step('swept', 2)]);
    const before = await stored('swept');
    await write(['swept'], [step('swept', 1), step('swept', 2)], 0);
    const after = await stored('swept');
    expect(after.map((r) => r.ordinal)).toEqual([1, 2]);
    expect(after.map((r) => r.version)).not.toEqual(before.map((r) => r.version));
  });
});

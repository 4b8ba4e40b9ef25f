// A derivation that meets another transaction (a deadlock with ingest re-keying a trace, a
// serialization failure) is no fault of the run's: it is done again with its mark intact, never
// quarantined, so a read never shows a run derived from part of its spans for a backoff's length.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { ensureProject } from '../db/projects';
import { createTestDatabase, rawRows, TEST_DATABASE_KINDS } from '../db/test-database';
import { countDirtyRuns, markRunsDirty } from '../db/write/dirty-runs';
import { ingestSpans } from '../ingest/ingest-spans';
import { oneStepRun, TEST_PRICE_TABLE } from '../ingest/test-spans';
import { loopSettings } from '../lib/settings';
import { deriveMarkedRuns } from './derive-marked-runs';
import type { DeriveContext } from './derive-runs';
import { settleRuns } from './settle-runs';

const trace = (k: number) => `${'d'.repeat(28)}${String(k).padStart(4, '0')}`;

/** As postgres.js raises it, under drizzle's wrapper: a deadlock the database detected. */
function deadlock(): Error {
  return Object.assign(new Error('Failed query: insert into trace_runs ...'), {
    cause: Object.assign(new Error('deadlock detected'), { code: '40P01' }),
  });
}

/** Derivation settings that meet a conflict the first `times` derivations. */
function conflicting(times: number, failures: unknown[]): DeriveContext {
  const settings = loopSettings();
  let left = times;
  return {
    prices: TEST_PRICE_TABLE,
    settings: {
      ...settings,
      deriveOptionsFor: (agent) => {
        if (left > 0) {
          left -= 1;
          throw deadlock();
        }
        return settings.deriveOptionsFor(agent);
      },
    },
    onFailure: (f) => failures.push(f),
  };
}

describe.each(TEST_DATABASE_KINDS)('a derivation that meets another transaction on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  const stored = async () =>
    rawRows(handle.db, sql`select id, step_count from runs where project_id = ${projectId}::uuid`);
  const quarantined = async () =>
    rawRows(
      handle.db,
      sql`select run_id from derive_failures where project_id = ${projectId}::uuid`,
    );

  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'conflicts');
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('keeps the mark and quarantines nothing when the deriver meets it', async () => {
    await ingestSpans(handle.db, projectId, oneStepRun(trace(1), 'racer'));
    const failures: unknown[] = [];
    await expect(deriveMarkedRuns(handle.db, conflicting(99, failures))).rejects.toThrow(/query/);
    expect((await countDirtyRuns(handle.db)).get(projectId)).toBe(1);
    expect(await quarantined()).toEqual([]);
    expect(failures).toEqual([]);
    // the next pass derives it whole
    expect(await deriveMarkedRuns(handle.db, conflicting(0, failures))).toBe(1);
    expect(await stored()).toEqual([{ id: trace(1), step_count: 1 }]);
  });

  it('derives again within the read that settles, so the read sees the whole run', async () => {
    await ingestSpans(handle.db, projectId, oneStepRun(trace(2), 'racer'));
    const failures: unknown[] = [];
    await settleRuns(handle.db, conflicting(1, failures), projectId);
    expect((await stored()).map((r) => r.id).sort()).toEqual([trace(1), trace(2)]);
    expect(await quarantined()).toEqual([]);
    expect(failures).toEqual([]);
    expect((await countDirtyRuns(handle.db)).get(projectId) ?? 0).toBe(0);
  });
});

describe('a mark taken while the spans it stands for are not yet committed (Postgres)', () => {
  let handle: DatabaseHandle;
  let projectId: string;
  beforeAll(async () => {
    handle = await createTestDatabase('postgres');
    projectId = await ensureProject(handle.db, 'marks');
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('is left by the deriver until they are, so the run is derived with them', async () => {
    await ingestSpans(handle.db, projectId, oneStepRun(trace(3), 'racer'));
    let marked!: () => void;
    const markedNow = new Promise<void>((resolve) => (marked = resolve));
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    // Ingest of more spans of the same run, its transaction open after it marked the run.
    const ingest = handle.db.transaction(async (tx) => {
      await markRunsDirty(tx, projectId, [trace(3)]);
      marked();
      await committing;
    });
    await markedNow;
    const claimed = await deriveMarkedRuns(handle.db, conflicting(0, []));
    commit();
    await ingest;
    expect(claimed).toBe(0);
    expect((await countDirtyRuns(handle.db)).get(projectId)).toBe(1);
  });
});

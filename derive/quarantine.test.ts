// A run that cannot be derived is quarantined alone: the rest of its batch, its project's reads
// and every other project go on; it waits out a backoff, counts in no backlog, and derives again
// once a newer version has read its spans again.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { ensureProject } from '../db/projects';
import { listDeriveFailures } from '../db/read/derive-failures';
import { rawRows } from '../db/test-database';
import { createTestDatabase, TEST_DATABASE_KINDS } from '../db/test-database';
import { retryQuarantinedRuns } from '../db/write/derive-failures';
import { countDirtyRuns } from '../db/write/dirty-runs';
import { ingestSpans } from '../ingest/ingest-spans';
import { refreshQuarantinedFacts } from '../ingest/refresh-facts';
import { oneStepRun, TEST_PRICE_TABLE } from '../ingest/test-spans';
import { loopSettings } from '../lib/settings';
import { deriveMarkedRuns } from './derive-marked-runs';
import type { DeriveContext } from './derive-runs';
import { settleRuns } from './settle-runs';

const SECRET = 'span-content-that-must-never-reach-a-log';

const trace = (k: number) => `${'c'.repeat(28)}${String(k).padStart(4, '0')}`;

describe.each(TEST_DATABASE_KINDS)('derivation quarantine on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectA: string;
  let projectB: string;
  const failures: { projectId: string; runId: string; error: string }[] = [];
  const context: DeriveContext = {
    prices: TEST_PRICE_TABLE,
    settings: loopSettings(),
    onFailure: (f) => failures.push(f),
  };
  const runsOf = async (projectId: string) =>
    (
      await rawRows(
        handle.db,
        sql`select id, step_count, value_problem_count from runs
            where project_id = ${projectId}::uuid order by id`,
      )
    ).map((r) => ({
      id: String(r.id),
      steps: Number(r.step_count),
      problems: Number(r.value_problem_count),
    }));

  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectA = await ensureProject(handle.db, 'a');
    projectB = await ensureProject(handle.db, 'b');
    await ingestSpans(handle.db, projectA, oneStepRun(trace(1), 'good', { note: SECRET }));
    await ingestSpans(handle.db, projectA, oneStepRun(trace(2), 'poisoned', { note: SECRET }));
    await ingestSpans(handle.db, projectB, oneStepRun(trace(3), 'neighbour', { note: SECRET }));
    // As a version without value bounds stored it: a step number no integer column holds.
    await handle.db.execute(sql`update spans set facts = jsonb_set(facts, '{step}', '3000000000')
      where trace_id = ${trace(2)} and span_id = ${'0000000000000002'}`);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('derives the rest of the batch and quarantines the one run with its error', async () => {
    expect(await deriveMarkedRuns(handle.db, context)).toBe(3);
    expect((await runsOf(projectA)).map((r) => r.id)).toEqual([trace(1)]);
    expect((await runsOf(projectB)).map((r) => r.id)).toEqual([trace(3)]);
    const [failure] = await rawRows(
      handle.db,
      sql`select run_id, error, attempts, retry_at > now() as waiting from derive_failures`,
    );
    expect(failure).toMatchObject({ run_id: trace(2), attempts: 1, waiting: true });
    expect(String(failure?.error)).toMatch(/out of range/);
    expect(failures.map((f) => [f.projectId, f.runId])).toEqual([[projectA, trace(2)]]);
    const listed = await listDeriveFailures(handle.db, { projectId: projectA });
    expect(listed).toMatchObject({ total: 1, runs: [{ runId: trace(2), attempts: 1 }] });
    expect(await listDeriveFailures(handle.db, { projectId: projectB })).toEqual({
      total: 0,
      runs: [],
    });
  });

  it('says what failed in a few words, never the query or the span content', () => {
    const error = failures[0]?.error ?? '';
    expect(error.length).toBeLessThan(600);
    expect(error).not.toContain(SECRET);
    expect(error).not.toMatch(/insert into|params/i);
  });

  it('counts the quarantined run in no backlog, and reads settle around it', async () => {
    expect((await countDirtyRuns(handle.db)).get(projectA) ?? 0).toBe(0);
    await settleRuns(handle.db, context, projectA);
    await settleRuns(handle.db, context, projectA, { runId: trace(2) });
    expect(failures).toHaveLength(1); // waiting out its backoff: not tried again by reads
    expect(await deriveMarkedRuns(handle.db, context)).toBe(0);
  });

  it('backs off longer after each failure', async () => {
    await handle.db.execute(sql`update dirty_runs set not_before = now() - interval '1 second'`);
    expect(await deriveMarkedRuns(handle.db, context)).toBe(1);
    const [row] = await rawRows(
      handle.db,
      sql`select attempts, extract(epoch from retry_at - last_failed_at)::int as wait
          from derive_failures`,
    );
    expect(row).toMatchObject({ attempts: 2, wait: 120 });
  });

  it('derives the run once its spans are read again at start, the bad value marked', async () => {
    expect(await refreshQuarantinedFacts(handle.db)).toBe(2);
    await retryQuarantinedRuns(handle.db);
    expect(await deriveMarkedRuns(handle.db, context)).toBe(1);
    expect(await runsOf(projectA)).toEqual([
      { id: trace(1), steps: 1, problems: 0 },
      { id: trace(2), steps: 1, problems: 0 },
    ]);
    expect(await rawRows(handle.db, sql`select * from derive_failures`)).toEqual([]);
  });
});

// The background deriver on each database: a pass derives every marked run, in batches of the
// size its sizer gives when batches are sized (Postgres's runtime), else of the most runs.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { ensureProject } from '../db/projects';
import { createTestDatabase, rawRows, TEST_DATABASE_KINDS } from '../db/test-database';
import { countDirtyRuns } from '../db/write/dirty-runs';
import { ingestSpans } from '../ingest/ingest-spans';
import { oneStepRun, TEST_PRICE_TABLE } from '../ingest/test-spans';
import { loopSettings } from '../lib/settings';
import { DeriveBatchSize } from './derive-batch-size';
import type { DeriveContext } from './derive-runs';
import { Deriver } from './deriver';

const RUNS = 12;
const trace = (k: number) => `${'e'.repeat(28)}${String(k).padStart(4, '0')}`;

/** A sizer that always asks for `size` runs and records what each batch took. */
class FixedBatchSize extends DeriveBatchSize {
  readonly asked: number[] = [];
  readonly derived: number[] = [];
  constructor(private readonly size: number) {
    super();
  }
  override next(backlog: number): number {
    this.asked.push(backlog);
    return this.size;
  }
  override took(runs: number, ms: number): void {
    this.derived.push(runs);
    super.took(runs, ms);
  }
}

describe.each(TEST_DATABASE_KINDS)('the deriver on %s', (kind) => {
  let handle: DatabaseHandle;
  const context = (): DeriveContext => ({
    prices: TEST_PRICE_TABLE,
    settings: loopSettings(),
    onFailure: () => {},
  });
  const derivedRuns = async (projectId: string) =>
    rawRows(handle.db, sql`select id from runs where project_id = ${projectId}::uuid order by id`);

  async function markRuns(name: string): Promise<string> {
    const projectId = await ensureProject(handle.db, name);
    for (let k = 0; k < RUNS; k++)
      await ingestSpans(handle.db, projectId, oneStepRun(trace(k), 'batcher'));
    expect((await countDirtyRuns(handle.db)).get(projectId)).toBe(RUNS);
    return projectId;
  }

  async function onePass(deriver: Deriver): Promise<void> {
    deriver.start(60_000);
    await deriver.idle();
    deriver.stop();
  }

  beforeAll(async () => {
    handle = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('claims no more runs than the sizer gives when batches are sized', async () => {
    const projectId = await markRuns('sized');
    const sizer = new FixedBatchSize(5);
    const errors: unknown[] = [];
    await onePass(
      new Deriver(
        () => handle.db,
        context,
        (e) => errors.push(e),
        () => true,
        sizer,
      ),
    );
    expect(errors).toEqual([]);
    expect(sizer.derived).toEqual([5, 5, 2]);
    // the sizer was told the backlog as counted before each batch
    expect(sizer.asked).toEqual([12, 7, 2]);
    expect((await derivedRuns(projectId)).length).toBe(RUNS);
    expect((await countDirtyRuns(handle.db)).get(projectId) ?? 0).toBe(0);
  });

  it('takes the most runs at once and never asks the sizer when batches are not sized', async () => {
    const projectId = await markRuns('unsized');
    const sizer = new FixedBatchSize(5);
    await onePass(
      new Deriver(
        () => handle.db,
        context,
        () => {},
        () => false,
        sizer,
      ),
    );
    expect(sizer.asked).toEqual([]);
    expect(sizer.derived).toEqual([]);
    expect((await derivedRuns(projectId)).length).toBe(RUNS);
    expect((await countDirtyRuns(handle.db)).get(projectId) ?? 0).toBe(0);
  });
});

// A run of hundreds of thousands of steps derives without recursion or stack growth: every pass
// over its spans and steps is a loop, and its steps are written in bounded statements.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { ensureProject } from '../db/projects';
import { rawRows } from '../db/test-database';
import { createTestDatabase, TEST_DATABASE_KINDS } from '../db/test-database';
import { ingestSpans } from '../ingest/ingest-spans';
import { span, TEST_PRICE_TABLE } from '../ingest/test-spans';
import { loopSettings } from '../lib/settings';
import { deriveMarkedRuns } from './derive-marked-runs';

const STEPS = 320_000;
const DEPTH = 20_000;
const TRACE = 'dee9'.repeat(8);

describe.each(TEST_DATABASE_KINDS)('a run of %s steps', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'deep');
  }, 600_000);
  afterAll(async () => {
    await handle?.close();
  });

  it(`derives ${STEPS} steps under one root, and a chain of spans ${DEPTH} deep`, async () => {
    const root = span(
      1,
      null,
      'agent',
      0,
      STEPS * 10 + 5,
      { 'loop.exit.reason': 'goal_met' },
      {
        traceId: TRACE,
      },
    );
    await ingestSpans(handle.db, projectId, [root]);
    const chunk = 20_000;
    for (let k = 0; k < STEPS; k += chunk) {
      const spans = Array.from({ length: Math.min(chunk, STEPS - k) }, (_, j) => {
        const n = k + j + 2;
        return span(
          n,
          1,
          'step',
          n * 10,
          n * 10 + 5,
          {
            'loop.step': n - 1,
            'loop.action': n % 3 ? 'read' : 'write',
            'loop.action.args': `{"n":${n % 5}}`,
            'loop.cost_usd': 0.001,
          },
          { traceId: TRACE },
        );
      });
      await ingestSpans(handle.db, projectId, spans);
    }
    // Inside step 1: each span the parent of the next.
    const first = STEPS + 2;
    const chain = Array.from({ length: DEPTH }, (_, j) =>
      span(first + j, j === 0 ? 2 : first + j - 1, 'work', 20, 25, {}, { traceId: TRACE }),
    );
    await ingestSpans(handle.db, projectId, chain);
    expect(
      await deriveMarkedRuns(handle.db, { prices: TEST_PRICE_TABLE, settings: loopSettings() }),
    ).toBe(1);
    const [run] = await rawRows(
      handle.db,
      sql`select step_count, span_count, exit_category::text as exit, round(cost_usd::numeric, 3)::text as cost
          from runs where project_id = ${projectId}::uuid`,
    );
    expect(run).toEqual({
      step_count: STEPS,
      span_count: STEPS + DEPTH + 1,
      exit: 'goal_satisfied',
      cost: '320.000',
    });
    expect(await rawRows(handle.db, sql`select * from derive_failures`)).toEqual([]);
  }, 600_000);
});

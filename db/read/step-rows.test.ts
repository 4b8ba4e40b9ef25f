// A run's steps come back as one JSON value a row (step-rows.ts): every column's values at and past
// its type's edge read as they do from the row selected column by column.
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { steps } from '../schema';
import { TEST_DATABASE_KINDS, createTestDatabase } from '../test-database';
import { replaceSteps } from '../write/save-steps';
import { testStepRow } from '../write/test-step-row';
import { compareSteps, diffSteps } from './diff-steps';
import { listSteps } from './list-steps';
import { trajectorySteps } from './trajectory-steps';

const RUN = 'edge-steps';

/** Each step's columns set, in SQL, to values at a type's edge (by ordinal). */
const EDGES: string[] = [
  `progress = 'NaN', cost_usd = 'Infinity', duration_ms = '-Infinity'`,
  `progress = '-0', cost_usd = 5e-324, duration_ms = 1.7976931348623157e308`,
  `input_tokens = 9223372036854775807, output_tokens = 9007199254740993,
    repeat_of = 2147483647, revisit_of = -2147483648, revisit_cycle = 0, stall_since = 1`,
  `action = E'quote " back \\\\ slash \\t \\n \\u0001 \\u2028 </script> 日本語 🦜',
    action_hash = '', state_hash = null, result_hash = repeat('r', 20000),
    action_args = '{"a": "' || repeat('y', 50000) || E'\\\\"}'`,
  `verdict = 'pass', verdict_source = 'environment',
    verdict_fields = '{"tests": true, "lint": false}', signals = ARRAY['repeat', 'stall']`,
  `start_ms = 18446744073709, error_class = 'Timeout'`,
];

describe.each(TEST_DATABASE_KINDS)("a run's steps read as one value each on %s", (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  const run = () => ({ projectId, runId: RUN });
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'edges');
    const rows = [...EDGES, 'unknown'].map((_, k) => testStepRow(RUN, k + 1));
    await handle.db.transaction((tx) => replaceSteps(tx, projectId, [RUN], rows));
    for (const [k, edge] of EDGES.entries()) {
      await handle.db.execute(
        sql`update steps set ${sql.raw(edge)}
          where project_id = ${projectId}::uuid and run_id = ${RUN} and ordinal = ${k + 1}`,
      );
    }
    // What a newer version might write: a verdict, signals and verdict fields this one does not
    // know, which read as none.
    await handle.db.execute(
      sql`update steps set verdict = 'maybe', signals = ARRAY['repeat', 'future_signal'],
        verdict_fields = '{"__proto__": true, "count": 3, "ok": false}'
        where project_id = ${projectId}::uuid and run_id = ${RUN} and ordinal = ${EDGES.length + 1}`,
    );
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** Every step as it reads from its whole row, column by column (the driver's own parsing). */
  async function columnByColumn() {
    return handle.db
      .select()
      .from(steps)
      .where(and(eq(steps.projectId, projectId), eq(steps.runId, RUN)))
      .orderBy(asc(steps.ordinal));
  }

  it('the trajectory, the API, the compare page and the diff read each edge value as the whole row does', async () => {
    const whole = await columnByColumn();
    const known = whole.slice(0, EDGES.length);
    const trajectory = await trajectorySteps(handle.db, run());
    expect(trajectory.slice(0, EDGES.length)).toEqual(
      known.map((r) => ({
        ordinal: r.ordinal,
        index: r.index,
        startMs: r.startMs,
        durationMs: r.durationMs,
        action: r.action,
        actionHash: r.actionHash,
        stateHash: r.stateHash,
        resultHash: r.resultHash,
        progress: r.progress,
        verdict: r.verdict,
        verdictSource: r.verdictSource,
        verdictFields: r.verdictFields,
        errorClass: r.errorClass,
        costUsd: r.costUsd,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        signals: r.signals,
        repeatOf: r.repeatOf,
        revisitOf: r.revisitOf,
        revisitCycle: r.revisitCycle,
        stallSince: r.stallSince,
      })),
    );
    const listed = await listSteps(handle.db, run());
    expect(listed.slice(0, EDGES.length)).toEqual(
      known.map((r) => ({
        index: r.index,
        spanId: r.spanId,
        startedAt: new Date(r.startMs).toISOString(),
        durationMs: r.durationMs,
        action: r.action,
        actionArgs: r.actionArgs,
        actionHash: r.actionHash,
        stateHash: r.stateHash,
        resultHash: r.resultHash,
        progress: r.progress,
        verdict: r.verdict,
        verdictSource: r.verdictSource,
        verdictFields: r.verdictFields,
        errorClass: r.errorClass,
        costUsd: r.costUsd,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        signals: r.signals,
        repeatOf: r.repeatOf,
        revisitOf: r.revisitOf,
      })),
    );
    expect(listed.at(-1)!.verdict).toBeNull();
    const compare = await compareSteps(handle.db, run());
    expect(compare.slice(0, EDGES.length)).toEqual(
      trajectory.slice(0, EDGES.length).map((s) => ({
        index: s.index,
        action: s.action,
        actionHash: s.actionHash,
        stateHash: s.stateHash,
        resultHash: s.resultHash,
        progress: s.progress,
        verdict: s.verdict,
        errorClass: s.errorClass,
        costUsd: s.costUsd,
        signals: s.signals,
      })),
    );
    const diff = await diffSteps(handle.db, run());
    expect(diff).toEqual(
      trajectory.map((s) => ({
        index: s.index,
        actionHash: s.actionHash,
        stateHash: s.stateHash,
        resultHash: s.resultHash,
      })),
    );
    expect(trajectory[0]!.progress).toBeNaN();
    expect(trajectory[0]!.durationMs).toBe(Number.NEGATIVE_INFINITY);
    expect(Object.is(trajectory[1]!.progress, -0)).toBe(true);
    expect(trajectory[2]!.outputTokens).toBe(Number('9007199254740993'));
    expect(trajectory[3]!.resultHash).toHaveLength(20000);
    expect(trajectory[4]!.verdictFields).toEqual({ tests: true, lint: false });
  });

  it('a run of several thousand steps reads whole and in order, across the values it comes in', async () => {
    const long = Array.from({ length: 2500 }, (_, k) => testStepRow('long', 2500 - k));
    await handle.db.transaction((tx) => replaceSteps(tx, projectId, ['long'], long));
    const read = await trajectorySteps(handle.db, { projectId, runId: 'long' });
    expect(read.map((s) => s.ordinal)).toEqual(Array.from({ length: 2500 }, (_, k) => k + 1));
    expect(read.map((s) => s.actionHash)).toEqual(read.map((s) => `h${s.ordinal}`));
    const diff = await diffSteps(handle.db, { projectId, runId: 'long' });
    expect(diff.map((s) => s.index)).toEqual(read.map((s) => s.index));
    expect(await trajectorySteps(handle.db, { projectId, runId: 'none' })).toEqual([]);
  });

  it('a verdict, signal or verdict field this version does not know reads as none', async () => {
    const [last] = (await trajectorySteps(handle.db, run())).slice(-1);
    expect(last!.verdict).toBeNull();
    expect(last!.signals).toEqual(['repeat']);
    const fields = last!.verdictFields!;
    expect(Object.keys(fields).sort()).toEqual(['__proto__', 'ok']);
    expect(Object.getOwnPropertyDescriptor(fields, '__proto__')?.value).toBe(true);
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
  });
});

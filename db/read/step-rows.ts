// A run's steps as the trajectory view, the steps API, the compare page and the diff read them:
// a thousand steps a value, each step a JSON array (db/json-row.ts). A 10,000-step run is 40,000
// to 210,000 values column by column, and PGlite hands each back at about a microsecond
// (BENCHMARKS.md "A run's steps in a few values").
import { and, eq, sql } from 'drizzle-orm';
import { SIGNALS, VERDICTS } from '../../trajectory/step';
import { jsonRow, read } from '../json-row';
import type { JsonRow } from '../json-row';
import { steps } from '../schema';
import type { Executor } from '../sql';

const STEP = {
  ordinal: [steps.ordinal, read.number],
  index: [steps.index, read.number],
  spanId: [steps.spanId, read.text],
  startMs: [steps.startMs, read.number],
  durationMs: [steps.durationMs, read.numberOrNull],
  action: [steps.action, read.textOrNull],
  actionArgs: [steps.actionArgs, read.textOrNull],
  actionHash: [steps.actionHash, read.textOrNull],
  stateHash: [steps.stateHash, read.textOrNull],
  resultHash: [steps.resultHash, read.textOrNull],
  progress: [steps.progress, read.numberOrNull],
  // Plain text columns: a value this version does not know reads as none, not as an error.
  verdict: [steps.verdict, read.oneOfOrNull(VERDICTS)],
  verdictSource: [steps.verdictSource, read.textOrNull],
  verdictFields: [steps.verdictFields, read.flagsOrNull],
  errorClass: [steps.errorClass, read.textOrNull],
  costUsd: [steps.costUsd, read.number],
  inputTokens: [steps.inputTokens, read.number],
  outputTokens: [steps.outputTokens, read.number],
  signals: [steps.signals, read.someOf(SIGNALS)],
  repeatOf: [steps.repeatOf, read.numberOrNull],
  revisitOf: [steps.revisitOf, read.numberOrNull],
  revisitCycle: [steps.revisitCycle, read.numberOrNull],
  stallSince: [steps.stallSince, read.numberOrNull],
} as const;

/** A step as the API lists it (StepJson, with its start as milliseconds). */
export const apiStepRow = jsonRow('a step', {
  index: STEP.index,
  spanId: STEP.spanId,
  startMs: STEP.startMs,
  durationMs: STEP.durationMs,
  action: STEP.action,
  actionArgs: STEP.actionArgs,
  actionHash: STEP.actionHash,
  stateHash: STEP.stateHash,
  resultHash: STEP.resultHash,
  progress: STEP.progress,
  verdict: STEP.verdict,
  verdictSource: STEP.verdictSource,
  verdictFields: STEP.verdictFields,
  errorClass: STEP.errorClass,
  costUsd: STEP.costUsd,
  inputTokens: STEP.inputTokens,
  outputTokens: STEP.outputTokens,
  signals: STEP.signals,
  repeatOf: STEP.repeatOf,
  revisitOf: STEP.revisitOf,
});

/** What the trajectory view draws of a step (no arguments: they come a step at a time). */
export const trajectoryStepRow = jsonRow('a step', {
  ordinal: STEP.ordinal,
  index: STEP.index,
  startMs: STEP.startMs,
  durationMs: STEP.durationMs,
  action: STEP.action,
  actionHash: STEP.actionHash,
  stateHash: STEP.stateHash,
  resultHash: STEP.resultHash,
  progress: STEP.progress,
  verdict: STEP.verdict,
  verdictSource: STEP.verdictSource,
  verdictFields: STEP.verdictFields,
  errorClass: STEP.errorClass,
  costUsd: STEP.costUsd,
  inputTokens: STEP.inputTokens,
  outputTokens: STEP.outputTokens,
  signals: STEP.signals,
  repeatOf: STEP.repeatOf,
  revisitOf: STEP.revisitOf,
  revisitCycle: STEP.revisitCycle,
  stallSince: STEP.stallSince,
});

/** What the compare page's aligned rows show, and the hashes that align them. */
export const compareStepRow = jsonRow('a step', {
  index: STEP.index,
  action: STEP.action,
  actionHash: STEP.actionHash,
  stateHash: STEP.stateHash,
  resultHash: STEP.resultHash,
  progress: STEP.progress,
  verdict: STEP.verdict,
  errorClass: STEP.errorClass,
  costUsd: STEP.costUsd,
  signals: STEP.signals,
});

/** The step numbers and the three hashes: all the diff aligns by. */
export const diffStepRow = jsonRow('a step', {
  index: STEP.index,
  actionHash: STEP.actionHash,
  stateHash: STEP.stateHash,
  resultHash: STEP.resultHash,
});

/**
 * Steps a value of `readSteps` aggregates: a 10,000-step run in 10 values, not 10,000 rows. None
 * of these rows holds arguments or results; the 1 GB a value may hold is reached only by steps
 * of a megabyte of action names and hashes each (thousands of tool calls a step).
 */
const STEPS_A_VALUE = 1000;

/** A run's steps in step order, each as `row` reads it. */
export async function readSteps<T extends Record<string, unknown>>(
  db: Executor,
  row: JsonRow<T>,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<T[]> {
  // A literal: a parameter in GROUP BY and another in ORDER BY are not the same expression.
  const chunk = sql`${steps.ordinal} / ${sql.raw(String(STEPS_A_VALUE))}`;
  const chunks = await db
    .select({ rows: sql<string>`json_agg(${row.array} order by ${steps.ordinal})::text` })
    .from(steps)
    .where(and(eq(steps.projectId, projectId), eq(steps.runId, runId)))
    .groupBy(chunk)
    .orderBy(chunk);
  const read: T[] = [];
  for (const { rows } of chunks) {
    const values: unknown = JSON.parse(rows);
    if (!Array.isArray(values)) throw new Error(`a run's steps are not an array of steps`);
    for (const value of values) read.push(row.fromValues(value));
  }
  return read;
}

// A run's steps as the trajectory view, the compare page and the diff read them: each row one
// JSON value (db/json-row.ts), since a 10,000-step run is 40,000 to 210,000 values, and PGlite
// hands each back at about a microsecond (BENCHMARKS.md "A listed run as one value").
import { and, asc, eq } from 'drizzle-orm';
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

/** A run's steps in step order, each as `row` reads it. */
export async function readSteps<T extends Record<string, unknown>>(
  db: Executor,
  row: JsonRow<T>,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<T[]> {
  const rows = await db
    .select({ row: row.select })
    .from(steps)
    .where(and(eq(steps.projectId, projectId), eq(steps.runId, runId)))
    .orderBy(asc(steps.ordinal));
  return rows.map((r) => row.parse(r.row));
}

// The step as the pure core sees it: what ingest assembled from spans, before any signal.

export const VERDICTS = ['pass', 'fail', 'stalled'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const VERDICT_SOURCES = ['environment', 'judge', 'self'] as const;
export type VerdictSource = (typeof VERDICT_SOURCES)[number];

export const ERROR_CLASSES = [
  'transient',
  'malformed',
  'precondition',
  'permission',
  'loop_hazard',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

export const SIGNALS = ['repeat', 'revisit', 'stall', 'tool_circuit'] as const;
export type Signal = (typeof SIGNALS)[number];

export const PROGRESS_DIRECTIONS = ['down', 'up'] as const;
export type ProgressDirection = (typeof PROGRESS_DIRECTIONS)[number];

export interface StepInput {
  /** The step number the span carries (`loop.step`), or 1.. in start order. */
  index: number;
  action: string | null;
  actionHash: string | null;
  stateHash: string | null;
  resultHash: string | null;
  progress: number | null;
  verdict: Verdict | null;
  verdictSource: VerdictSource | null;
  /** Non-null when the step failed. */
  errorClass: ErrorClass | null;
  /** The action waits for the world (`loop.action.polling`): a poll is never a repeat. */
  polling?: boolean;
  costUsd: number;
}

export interface StepFindings {
  signals: Signal[];
  repeatOf: number | null;
  revisitOf: number | null;
  revisitCycle: number | null;
  /** For a stall: the step that set the best progress the stall failed to beat. */
  stallSince: number | null;
}

export function isVerdict(value: unknown): value is Verdict {
  return (VERDICTS as readonly unknown[]).includes(value);
}

export function isVerdictSource(value: unknown): value is VerdictSource {
  return (VERDICT_SOURCES as readonly unknown[]).includes(value);
}

export function isErrorClass(value: unknown): value is ErrorClass {
  return (ERROR_CLASSES as readonly unknown[]).includes(value);
}

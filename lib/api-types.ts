// The JSON shapes of the read API (API.md), which other programs depend on: names and shapes
// exactly as documented. Read models return these; pages and components render them.
import type { BudgetKind, ExitCategory, VerificationState } from '../trajectory/exit-categories';
import type { Signal, Verdict } from '../trajectory/step';

export interface RunFlagsJson {
  repeat: { step: number; of: number } | null;
  revisit: { step: number; of: number; cycleLength: number } | null;
  stall: { step: number } | null;
  toolCircuit: { step: number; tool: string } | null;
  fabricatedSuccess: boolean;
  unexplainedStop: boolean;
}

export interface RunSummary {
  id: string;
  traceIds: string[];
  agent: string | null;
  variant: string | null;
  goal: string | null;
  exitReason: string | null;
  exitCategory: ExitCategory;
  exitKind: BudgetKind | null;
  verification: VerificationState;
  verifiedUnits: number;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  stepCount: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  flags: RunFlagsJson;
  wastedUsd: number;
}

/** What the trajectory view needs beyond the API's summary. */
export interface RunDetail extends RunSummary {
  exitDetail: string | null;
  escalation: string | null;
  limits: { maxSteps: number | null; maxUsd: number | null; wallClockMs: number | null };
  model: string | null;
  unpricedModels: string[];
  cacheReadTokens: number;
  spanCount: number;
  firstSignalStep: number | null;
  progressDirection: 'down' | 'up';
  /** From the run's first span to the latest end of any of its spans, as stored. */
  elapsedMs: number;
}

export interface StepJson {
  index: number;
  spanId: string;
  startedAt: string;
  durationMs: number | null;
  action: string | null;
  actionArgs: string | null;
  actionHash: string | null;
  stateHash: string | null;
  resultHash: string | null;
  progress: number | null;
  verdict: Verdict | null;
  verdictSource: string | null;
  verdictFields: Record<string, boolean> | null;
  errorClass: string | null;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  signals: Signal[];
  repeatOf: number | null;
  revisitOf: number | null;
}

export interface ExitReasonGroup {
  exitCategory: ExitCategory;
  runs: number;
  costUsd: number;
  share: number;
}

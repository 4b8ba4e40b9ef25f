// From a run's steps to everything the lists and filters read: exit category, verification,
// each step's loop signals, the run's first of each, and the spend a guard would have saved.
import { classifyExitReason } from './exit-reason';
import type { ExitReasonSource } from './exit-reason';
import { isSuccessClaim } from './exit-categories';
import type { BudgetKind, ExitCategory, VerificationState } from './exit-categories';
import {
  detectRepeats,
  detectRevisits,
  detectStalls,
  detectToolCircuits,
  observedStates,
} from './signals';
import type { ProgressDirection, Signal, StepFindings, StepInput } from './step';
import { deriveVerification } from './verification';
import type { HumanVerdict, VerificationSource } from './verification';

export interface RunInput {
  /** The root arrived, the top-most span ended with a named exception, or the run went idle. */
  ended: boolean;
  exitReason: { raw: string; source: ExitReasonSource } | null;
  exitDetail: string | null;
  verified: boolean | null;
  verifiedUnits: number | null;
  progressDirection: ProgressDirection;
  /** A person's verdict on the outcome (POST /api/v1/runs/{id}/verdict), when given. */
  human?: { verdict: HumanVerdict; units: number } | null;
}

export interface DeriveOptions {
  /** W: progress-bearing steps without a new best before a stall (per agent; default 5). */
  stallWindow: number;
  /** N: failures of one tool in a row that open its circuit (default 3). */
  toolCircuitThreshold: number;
  /** Actions that wait for the world (job status, health checks): a poll is never a repeat. */
  pollingTools: readonly string[];
  /** Argument fields left out of the canonical action hash, at any depth. */
  ignoreArgs: readonly string[];
}

export const DEFAULT_DERIVE_OPTIONS: DeriveOptions = {
  stallWindow: 5,
  toolCircuitThreshold: 3,
  pollingTools: [],
  ignoreArgs: [],
};

export interface RunFlags {
  repeat: { step: number; of: number } | null;
  revisit: { step: number; of: number; cycleLength: number } | null;
  stall: { step: number } | null;
  toolCircuit: { step: number; tool: string } | null;
  fabricatedSuccess: boolean;
  unexplainedStop: boolean;
}

export interface DerivedRun {
  exitCategory: ExitCategory;
  exitKind: BudgetKind | null;
  verification: VerificationState;
  verifiedUnits: number;
  verificationSource: VerificationSource | null;
  flags: RunFlags;
  wastedUsd: number;
  /** Position (0-based) of the first repeat, revisit or stall; null when there is none. */
  firstLoopSignalAt: number | null;
  steps: StepFindings[];
}

export function deriveRun(
  run: RunInput,
  steps: readonly StepInput[],
  given: Partial<DeriveOptions> = DEFAULT_DERIVE_OPTIONS,
): DerivedRun {
  const options: DeriveOptions = { ...DEFAULT_DERIVE_OPTIONS, ...given };
  const states = observedStates(steps);
  const polling = new Set(options.pollingTools);
  const polls = steps.map(
    (s) => s.polling === true || (s.action !== null && polling.has(s.action)),
  );
  const repeats = detectRepeats(steps, states, polls);
  const revisits = detectRevisits(states);
  const stalls = detectStalls(steps, {
    window: options.stallWindow,
    direction: run.progressDirection,
  });
  const circuits = detectToolCircuits(steps, { threshold: options.toolCircuitThreshold });

  const numberAt = (position: number): number => steps[position]?.index ?? position + 1;
  const findings: StepFindings[] = steps.map((step, k) => {
    const signals: Signal[] = [];
    const repeatOf = repeats[k] ?? null;
    const revisitOf = revisits[k] ?? null;
    const stallSince = stalls[k] ?? null;
    if (repeatOf !== null) signals.push('repeat');
    if (revisitOf !== null) signals.push('revisit');
    if (stallSince !== null) signals.push('stall');
    if (circuits[k]) signals.push('tool_circuit');
    return {
      signals,
      repeatOf: repeatOf === null ? null : numberAt(repeatOf),
      revisitOf: revisitOf === null ? null : numberAt(revisitOf),
      revisitCycle: revisitOf === null ? null : step.index - numberAt(revisitOf),
      stallSince: stallSince === null ? null : numberAt(stallSince),
    };
  });

  const { category, kind } = classifyExitReason({
    raw: run.exitReason?.raw ?? null,
    source: run.exitReason?.source,
    detail: run.exitDetail,
    ended: run.ended,
  });
  const {
    verification,
    verifiedUnits,
    source: verificationSource,
  } = deriveVerification(run, steps);
  const flags = firstFlags(steps, findings);
  flags.fabricatedSuccess = isSuccessClaim(category) && verification === 'contradicted';
  flags.unexplainedStop = run.ended && category === 'unknown';

  const firstLoopSignalAt = firstIndexWhere(findings, (f) =>
    f.signals.some((s) => s !== 'tool_circuit'),
  );
  // The step that carries the first signal is waste too: the repeated call itself is the waste.
  let wastedUsd = 0;
  if (verification !== 'verified' && firstLoopSignalAt !== null) {
    for (let k = firstLoopSignalAt; k < steps.length; k++) wastedUsd += steps[k]?.costUsd ?? 0;
  }

  return {
    exitCategory: category,
    exitKind: kind,
    verification,
    verifiedUnits,
    verificationSource,
    flags,
    wastedUsd,
    firstLoopSignalAt,
    steps: findings,
  };
}

function firstFlags(steps: readonly StepInput[], findings: readonly StepFindings[]): RunFlags {
  const flags: RunFlags = {
    repeat: null,
    revisit: null,
    stall: null,
    toolCircuit: null,
    fabricatedSuccess: false,
    unexplainedStop: false,
  };
  findings.forEach((f, k) => {
    const step = steps[k];
    if (!step) return;
    if (!flags.repeat && f.repeatOf !== null) flags.repeat = { step: step.index, of: f.repeatOf };
    if (!flags.revisit && f.revisitOf !== null && f.revisitCycle !== null) {
      flags.revisit = { step: step.index, of: f.revisitOf, cycleLength: f.revisitCycle };
    }
    if (!flags.stall && f.signals.includes('stall')) flags.stall = { step: step.index };
    if (!flags.toolCircuit && f.signals.includes('tool_circuit') && step.action !== null) {
      flags.toolCircuit = { step: step.index, tool: step.action };
    }
  });
  return flags;
}

function firstIndexWhere<T>(items: readonly T[], predicate: (item: T) => boolean): number | null {
  const k = items.findIndex(predicate);
  return k === -1 ? null : k;
}

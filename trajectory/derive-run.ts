// From a run's steps to everything the lists and filters read: exit category, verification,
// each step's loop signals, the run's first of each, and the spend a guard would have saved.
import { classifyExitReason } from './exit-reason';
import type { ExitReasonSource } from './exit-reason';
import { isSuccessClaim } from './exit-categories';
import type { BudgetKind, ExitCategory, VerificationState } from './exit-categories';
import {
  observedState,
  RepeatScan,
  RevisitScan,
  StallScan,
  ToolCircuitScan,
  usesStateHashes,
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

/**
 * The step findings of a derivation and the scans that made them, to go on from when the same
 * steps come back with more after them (a long run streaming). Its arrays grow: results are copies.
 */
export interface DerivationMemo {
  steps: StepInput[];
  findings: StepFindings[];
  /** What the scans were made with: a run that changes any of it is derived whole. */
  key: string;
  scans: Scans;
}

interface Scans {
  stateHashes: boolean;
  repeats: RepeatScan;
  revisits: RevisitScan;
  stalls: StallScan;
  circuits: ToolCircuitScan;
  polling: ReadonlySet<string>;
}

export function deriveRun(
  run: RunInput,
  steps: readonly StepInput[],
  given: Partial<DeriveOptions> = DEFAULT_DERIVE_OPTIONS,
  previous?: DerivationMemo,
): DerivedRun & { memo: DerivationMemo } {
  const options: DeriveOptions = { ...DEFAULT_DERIVE_OPTIONS, ...given };
  const stateHashes = usesStateHashes(steps);
  // With no known state at all, repeats are three same actions in a row.
  const withStates = steps.some((s) => observedState(s, stateHashes) !== null);
  const key = JSON.stringify([
    stateHashes,
    withStates,
    options.stallWindow,
    options.toolCircuitThreshold,
    options.pollingTools,
    run.progressDirection,
  ]);
  const memo =
    previous && previous.key === key && isPrefix(previous.steps, steps)
      ? previous
      : {
          steps: [],
          findings: [],
          key,
          scans: {
            stateHashes,
            repeats: new RepeatScan(withStates),
            revisits: new RevisitScan(),
            stalls: new StallScan({
              window: options.stallWindow,
              direction: run.progressDirection,
            }),
            circuits: new ToolCircuitScan({ threshold: options.toolCircuitThreshold }),
            polling: new Set(options.pollingTools),
          },
        };
  for (let k = memo.steps.length; k < steps.length; k++) {
    const step = steps[k] as StepInput;
    memo.steps.push(step);
    memo.findings.push(findingsOf(memo.scans, steps, k));
  }
  const findings = memo.findings.slice();

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
    memo,
  };
}

/** The scans' findings for step `k`, the steps before it pushed already. */
function findingsOf(scans: Scans, steps: readonly StepInput[], k: number): StepFindings {
  const step = steps[k] as StepInput;
  const state = observedState(step, scans.stateHashes);
  const poll = step.polling === true || (step.action !== null && scans.polling.has(step.action));
  const repeatOf = scans.repeats.push(steps, k, state, poll);
  const revisitOf = scans.revisits.push(k, state);
  const stallSince = scans.stalls.push(k, step.progress);
  const circuit = scans.circuits.push(step);
  const numberAt = (position: number): number => steps[position]?.index ?? position + 1;
  const signals: Signal[] = [];
  if (repeatOf !== null) signals.push('repeat');
  if (revisitOf !== null) signals.push('revisit');
  if (stallSince !== null) signals.push('stall');
  if (circuit) signals.push('tool_circuit');
  return {
    signals,
    repeatOf: repeatOf === null ? null : numberAt(repeatOf),
    revisitOf: revisitOf === null ? null : numberAt(revisitOf),
    revisitCycle: revisitOf === null ? null : step.index - numberAt(revisitOf),
    stallSince: stallSince === null ? null : numberAt(stallSince),
  };
}

/** The memo's steps are the first of `steps`, as the same objects. */
function isPrefix(held: readonly StepInput[], steps: readonly StepInput[]): boolean {
  if (held.length > steps.length) return false;
  for (let k = 0; k < held.length; k++) if (held[k] !== steps[k]) return false;
  return true;
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

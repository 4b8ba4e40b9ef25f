// The run's trajectory as the harness sees it while it runs, judged by the very rules the server
// applies (trajectory/ derive-run and guard): a harness can stop on a repeat, a cycle, a stall, an
// open tool circuit or a budget without a round trip, and get the answer `POST /api/v1/guard`
// would give once the spans are stored.
import { deriveRun, DEFAULT_DERIVE_OPTIONS } from '../trajectory/derive-run';
import type { DeriveOptions, RunFlags } from '../trajectory/derive-run';
import { decideGuard } from '../trajectory/guard';
import type { GuardVerdict } from '../trajectory/guard';
import type { ProgressDirection, StepInput } from '../trajectory/step';
import type { Termination } from './termination';

export interface Limits {
  maxSteps?: number;
  maxUsd?: number;
  wallClockMs?: number;
}

/** Which findings `check()` stops on. The server's guard only warns on a stall, so it is off. */
export interface StopRules {
  limits?: boolean;
  repeat?: boolean;
  cycle?: boolean;
  stall?: boolean;
  toolCircuit?: boolean;
}

export const DEFAULT_STOP_RULES: Required<StopRules> = {
  limits: true,
  repeat: true,
  cycle: true,
  stall: false,
  toolCircuit: true,
};

export interface Totals {
  steps: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  /** Explicit costs plus tokens priced by the run's `price` option. */
  costUsd: number;
  elapsedMs: number;
}

export class LocalTrajectory {
  readonly steps: StepInput[] = [];
  private readonly options: DeriveOptions;

  constructor(
    private readonly direction: ProgressDirection,
    options: Partial<DeriveOptions> = {},
  ) {
    this.options = { ...DEFAULT_DERIVE_OPTIONS, ...options };
  }

  add(index: number): StepInput {
    const step: StepInput = {
      index,
      action: null,
      actionHash: null,
      stateHash: null,
      resultHash: null,
      progress: null,
      verdict: null,
      verdictSource: null,
      errorClass: null,
      costUsd: 0,
    };
    this.steps.push(step);
    return step;
  }

  /** The run's first repeat, revisit, stall and tool circuit so far, as the server derives them. */
  flags(): RunFlags {
    return deriveRun(
      {
        ended: false,
        exitReason: null,
        exitDetail: null,
        verified: null,
        verifiedUnits: null,
        progressDirection: this.direction,
      },
      this.steps,
      this.options,
    ).flags;
  }

  guard(limits: Limits, totals: Totals): GuardVerdict {
    const last = this.steps[this.steps.length - 1];
    return decideGuard({
      stepCount: this.steps.length,
      lastStep: last?.index ?? null,
      costUsd: totals.costUsd,
      elapsedMs: totals.elapsedMs,
      limits: {
        maxSteps: limits.maxSteps ?? null,
        maxUsd: limits.maxUsd ?? null,
        wallClockMs: limits.wallClockMs ?? null,
      },
      flags: this.flags(),
      actionAt: (index) => this.steps.find((s) => s.index === index)?.action ?? null,
    });
  }

  check(limits: Limits, totals: Totals, rules: StopRules = {}): Termination | null {
    const on = { ...DEFAULT_STOP_RULES, ...rules };
    if (on.limits) {
      const { maxSteps, maxUsd, wallClockMs } = limits;
      if (maxSteps !== undefined && totals.steps >= maxSteps)
        return { kind: 'step_ceiling', steps: totals.steps, cap: maxSteps };
      if (maxUsd !== undefined && totals.costUsd >= maxUsd)
        return { kind: 'cost_budget', spentUsd: round(totals.costUsd), capUsd: maxUsd };
      if (wallClockMs !== undefined && totals.elapsedMs >= wallClockMs)
        return { kind: 'deadline', elapsedMs: Math.round(totals.elapsedMs), capMs: wallClockMs };
    }
    const flags = this.flags();
    if (on.repeat && flags.repeat) {
      return {
        kind: 'no_progress',
        signal: 'repeated_call',
        step: flags.repeat.step,
        evidence: `step ${flags.repeat.step} repeats step ${flags.repeat.of} with no change of state`,
      };
    }
    if (on.cycle && flags.revisit) {
      return {
        kind: 'no_progress',
        signal: 'cyclical_loop',
        step: flags.revisit.step,
        evidence: `step ${flags.revisit.step} returns to the state after step ${flags.revisit.of}`,
      };
    }
    if (on.toolCircuit && flags.toolCircuit) {
      return {
        kind: 'tool_circuit_open',
        tool: flags.toolCircuit.tool,
        failures: this.options.toolCircuitThreshold,
        step: flags.toolCircuit.step,
      };
    }
    if (on.stall && flags.stall) {
      return {
        kind: 'no_progress',
        signal: 'stalled',
        step: flags.stall.step,
        evidence: `no new best progress in ${this.options.stallWindow} steps`,
      };
    }
    return null;
  }
}

function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

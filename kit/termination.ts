// A typed exit for every path out of a loop, so no run ends without naming why.
import type { BudgetKind } from '../trajectory/exit-categories';
import type { GuardVerdict } from '../trajectory/guard';
import type { ErrorClass } from '../trajectory/step';

export type NoProgressSignal = 'repeated_call' | 'cyclical_loop' | 'stalled';

export type Termination =
  | { kind: 'goal_met'; detail?: Record<string, unknown> }
  | { kind: 'model_stopped'; detail?: Record<string, unknown> }
  | { kind: 'step_ceiling'; steps: number; cap: number }
  | { kind: 'cost_budget'; spentUsd: number; capUsd: number }
  | { kind: 'token_budget'; tokens: number; cap: number }
  | { kind: 'deadline'; elapsedMs: number; capMs: number }
  | { kind: 'budget_exhausted'; budget?: BudgetKind; evidence?: string }
  | { kind: 'no_progress'; signal: NoProgressSignal; step: number; evidence?: string }
  | { kind: 'tool_circuit_open'; tool: string; failures: number; step?: number }
  | { kind: 'goal_drift'; detail?: Record<string, unknown> }
  | { kind: 'escalated'; handOver: string; cause?: ErrorClass | NoProgressSignal | string }
  | { kind: 'cancelled'; by: string }
  | { kind: 'hard_error'; error: string };

export type TerminationKind = Termination['kind'];

const RAW_REASON: Partial<Record<TerminationKind, string>> = {
  token_budget: 'limit_total_tokens',
  model_stopped: 'end_turn',
};

/** The raw reason and detail as Loopscope reads them (`loop.exit.reason`, `loop.exit.detail`). */
export function describeTermination(termination: Termination): { reason: string; detail: string } {
  const { kind, ...rest } = termination;
  // The kinds are reasons of the docs/conventions.md vocabulary as they are, except two: token
  // budgets carry their budget kind in the reason, and a model that stopped on its own says so
  // the way providers do (`model_stopped` itself is not a reason the classifier knows).
  const reason = RAW_REASON[kind] ?? kind;
  return { reason, detail: JSON.stringify(rest) };
}

/**
 * What to end the run with when a guard verdict (local or `POST /api/v1/guard`) says stop, or
 * null for continue and warn. A cycle asks for a person: pass `handOver` to escalate with it.
 */
export function terminationFromGuard(
  verdict: GuardVerdict,
  options: { handOver?: string; steps?: number; maxSteps?: number } = {},
): Termination | null {
  if (verdict.decision === 'continue' || verdict.decision === 'warn') return null;
  const step = verdict.step ?? 0;
  switch (verdict.reasonCode) {
    case 'repeated_call':
    case 'cyclical_loop':
    case 'no_progress': {
      const signal: NoProgressSignal =
        verdict.reasonCode === 'no_progress' ? 'stalled' : verdict.reasonCode;
      if (verdict.decision === 'escalate' && options.handOver)
        return { kind: 'escalated', handOver: options.handOver, cause: signal };
      return { kind: 'no_progress', signal, step, evidence: verdict.evidence };
    }
    case 'call_limit_exceeded':
      return {
        kind: 'step_ceiling',
        steps: options.steps ?? step,
        cap: options.maxSteps ?? options.steps ?? step,
      };
    case 'budget_exhausted': {
      // The guard names the budget in its evidence: loop.limits.max_usd or .wall_clock_ms.
      const budget = verdict.evidence.includes('max_usd') ? 'cost' : 'deadline';
      return { kind: 'budget_exhausted', budget, evidence: verdict.evidence };
    }
    case 'healthy':
      return null;
  }
}

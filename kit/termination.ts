// A typed exit for every path out of a loop, so no run ends without naming why.
export type Termination =
  | { kind: 'goal_met'; detail?: Record<string, unknown> }
  | { kind: 'model_stopped'; detail?: Record<string, unknown> }
  | { kind: 'step_ceiling'; steps: number; cap: number }
  | { kind: 'cost_budget'; spentUsd: number; capUsd: number }
  | { kind: 'token_budget'; tokens: number; cap: number }
  | { kind: 'deadline'; elapsedMs: number; capMs: number }
  | { kind: 'no_progress'; signal: 'repeated_call' | 'cyclical_loop' | 'stalled'; step: number }
  | { kind: 'tool_circuit_open'; tool: string; failures: number }
  | { kind: 'goal_drift'; detail?: Record<string, unknown> }
  | { kind: 'escalated'; handOver: string }
  | { kind: 'cancelled'; by: string }
  | { kind: 'hard_error'; error: string };

/** The raw reason and detail as Loopscope reads them (`loop.exit.reason`, `loop.exit.detail`). */
export function describeTermination(termination: Termination): { reason: string; detail: string } {
  const { kind, ...rest } = termination;
  // The TypeScript Termination vocabulary maps onto CONVENTIONS.md exit categories directly,
  // except token budgets, which carry their kind in the reason for the classifier.
  const reason = kind === 'token_budget' ? 'limit_total_tokens' : kind;
  return { reason, detail: JSON.stringify(rest) };
}

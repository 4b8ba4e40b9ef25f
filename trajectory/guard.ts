// The deterministic answer to a harness asking, between tool calls, "may this run go on?".
// Rules are checked in order; the first that fires decides. Declared budgets come first because
// the harness's owner set them; then loop signals, strongest evidence first.
import type { RunFlags } from './derive-run';

export const GUARD_DECISIONS = ['continue', 'warn', 'terminate', 'escalate'] as const;
export type GuardDecision = (typeof GUARD_DECISIONS)[number];

export const GUARD_REASON_CODES = [
  'healthy',
  'repeated_call',
  'cyclical_loop',
  'no_progress',
  'call_limit_exceeded',
  'budget_exhausted',
] as const;
export type GuardReasonCode = (typeof GUARD_REASON_CODES)[number];

export interface GuardVerdict {
  decision: GuardDecision;
  reasonCode: GuardReasonCode;
  step: number | null;
  evidence: string;
}

export interface GuardLimits {
  maxSteps: number | null;
  maxUsd: number | null;
  wallClockMs: number | null;
}

export interface GuardInput {
  stepCount: number;
  lastStep: number | null;
  costUsd: number;
  /** Time from the run's first span to its latest known end, as stored. */
  elapsedMs: number;
  limits: GuardLimits;
  flags: Pick<RunFlags, 'repeat' | 'revisit' | 'stall'>;
  /** The action name at each flagged step, for the evidence line. */
  actionAt: (step: number) => string | null;
}

/** Share of a budget at which the guard starts to warn. */
export const GUARD_WARN_SHARE = 0.8;

type Rule = (input: GuardInput) => GuardVerdict | null;

const overBudget: Rule = ({ stepCount, lastStep, costUsd, elapsedMs, limits }) => {
  if (limits.maxSteps !== null && stepCount >= limits.maxSteps) {
    return {
      decision: 'terminate',
      reasonCode: 'call_limit_exceeded',
      step: lastStep,
      evidence: `${stepCount} steps taken; loop.limits.max_steps is ${limits.maxSteps}`,
    };
  }
  if (limits.maxUsd !== null && costUsd >= limits.maxUsd) {
    return {
      decision: 'terminate',
      reasonCode: 'budget_exhausted',
      step: lastStep,
      evidence: `$${costUsd.toFixed(4)} spent; loop.limits.max_usd is $${limits.maxUsd}`,
    };
  }
  if (limits.wallClockMs !== null && elapsedMs >= limits.wallClockMs) {
    return {
      decision: 'terminate',
      reasonCode: 'budget_exhausted',
      step: lastStep,
      evidence: `${Math.round(elapsedMs)} ms elapsed; loop.limits.wall_clock_ms is ${limits.wallClockMs}`,
    };
  }
  return null;
};

const repeatedCall: Rule = ({ flags, actionAt }) =>
  flags.repeat && {
    decision: 'terminate',
    reasonCode: 'repeated_call',
    step: flags.repeat.step,
    evidence: `step ${flags.repeat.step} repeats step ${flags.repeat.of}: the same ${describe(actionAt(flags.repeat.step))} with no change of state in between`,
  };

const cyclicalLoop: Rule = ({ flags }) =>
  flags.revisit && {
    decision: 'escalate',
    reasonCode: 'cyclical_loop',
    step: flags.revisit.step,
    evidence: `step ${flags.revisit.step} returns to the state after step ${flags.revisit.of} (a cycle of ${flags.revisit.cycleLength} steps): a person should choose between the alternatives`,
  };

const noProgress: Rule = ({ flags }) =>
  flags.stall && {
    decision: 'warn',
    reasonCode: 'no_progress',
    step: flags.stall.step,
    evidence: `the progress metric has not improved on its best up to step ${flags.stall.step}`,
  };

const nearBudget: Rule = ({ stepCount, lastStep, costUsd, elapsedMs, limits }) => {
  const share = (used: number, limit: number | null) =>
    limit !== null && limit > 0 ? used / limit : 0;
  if (share(stepCount, limits.maxSteps) >= GUARD_WARN_SHARE) {
    return {
      decision: 'warn',
      reasonCode: 'call_limit_exceeded',
      step: lastStep,
      evidence: `${stepCount} of ${limits.maxSteps} allowed steps used`,
    };
  }
  const costShare = share(costUsd, limits.maxUsd);
  const timeShare = share(elapsedMs, limits.wallClockMs);
  if (Math.max(costShare, timeShare) >= GUARD_WARN_SHARE) {
    const evidence =
      costShare >= timeShare
        ? `${Math.round(costShare * 100)}% of loop.limits.max_usd spent`
        : `${Math.round(timeShare * 100)}% of loop.limits.wall_clock_ms elapsed`;
    return { decision: 'warn', reasonCode: 'budget_exhausted', step: lastStep, evidence };
  }
  return null;
};

export const GUARD_RULES: readonly Rule[] = [
  overBudget,
  repeatedCall,
  cyclicalLoop,
  noProgress,
  nearBudget,
];

export function decideGuard(input: GuardInput): GuardVerdict {
  for (const rule of GUARD_RULES) {
    const verdict = rule(input);
    if (verdict) return verdict;
  }
  return {
    decision: 'continue',
    reasonCode: 'healthy',
    step: null,
    evidence:
      input.stepCount === 0
        ? 'no steps recorded yet'
        : `${input.stepCount} steps, no repeat, cycle or stall, within declared limits`,
  };
}

function describe(action: string | null): string {
  return action === null ? 'action' : `call of ${action}`;
}

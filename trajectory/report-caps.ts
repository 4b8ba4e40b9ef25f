// Budget-cap simulation: replay finished runs under a step cap and a dollar cap and see what a
// verified unit would have cost. A run the cap cuts keeps the spend it made up to the cut and is
// no longer verified: a tighter cap saves the runaway loops' spend but also kills runs that
// would have passed, and cost per run cannot see the second half of that trade.
//
// The caps act as a harness enforces them, between steps:
// - step cap c: at most c steps; a run with more is cut after step c.
// - dollar cap d: before each step the harness compares the spend so far with d and stops when
//   it has reached d; the step that crosses d is paid in full. A run that reaches d only in its
//   last step is not cut.
// Spend outside any step (a run's cost minus its steps' costs) is counted first and in full.
import { costPerVerifiedUnit } from './report-metrics';

export interface CapRun {
  /** Each step's spend, in step order. */
  stepCosts: readonly number[];
  /** The run's whole spend, which may include spend outside its steps. */
  costUsd: number;
  verified: boolean;
  verifiedUnits: number;
}

export interface Caps {
  maxSteps?: number | null;
  maxUsd?: number | null;
}

export interface CapOutcome {
  /** The cap this outcome is for (steps or dollars, by the curve). */
  cap: number;
  runs: number;
  /** Runs the caps stopped before their last step. */
  cutRuns: number;
  /** Verified runs the caps cut: work that would have been lost. */
  lostVerifiedRuns: number;
  verifiedRuns: number;
  verifiedUnits: number;
  costUsd: number;
  costPerVerifiedUnit: number | null;
}

// Spend sums carry float noise (16 × 0.0125 ≠ 0.2 exactly): a dollar cap is reached within this.
const DOLLAR_EPSILON = 1e-9;

/** A run prepared once for many caps: its spend before each step. */
interface Prepared {
  steps: number;
  /** before[k] = spend before step k+1 (overhead + the first k steps); before[steps] = total. */
  before: number[];
  verified: boolean;
  verifiedUnits: number;
}

function prepare(run: CapRun): Prepared {
  const stepTotal = run.stepCosts.reduce((sum, c) => sum + c, 0);
  const overhead = Math.max(0, run.costUsd - stepTotal);
  const before = [overhead];
  for (const cost of run.stepCosts) before.push((before[before.length - 1] as number) + cost);
  // A run that completes costs exactly what it cost, without the float noise of re-adding.
  before[before.length - 1] = Math.max(run.costUsd, stepTotal);
  return {
    steps: run.stepCosts.length,
    before,
    verified: run.verified,
    verifiedUnits: run.verified ? run.verifiedUnits : 0,
  };
}

/** Steps a run completes under the dollar cap (all of them when it never reaches the cap). */
function stepsUnderDollarCap(run: Prepared, maxUsd: number | null | undefined): number {
  if (maxUsd === null || maxUsd === undefined) return run.steps;
  for (let k = 0; k < run.steps; k++) {
    if ((run.before[k] as number) >= maxUsd - DOLLAR_EPSILON) return k;
  }
  return run.steps;
}

function outcome(
  cap: number,
  runs: readonly Prepared[],
  allowed: (run: Prepared, index: number) => number,
): CapOutcome {
  let cutRuns = 0;
  let lostVerifiedRuns = 0;
  let verifiedRuns = 0;
  let verifiedUnits = 0;
  let costUsd = 0;
  runs.forEach((run, index) => {
    const done = Math.min(run.steps, allowed(run, index));
    costUsd += run.before[done] as number;
    if (done < run.steps) {
      cutRuns += 1;
      if (run.verified) lostVerifiedRuns += 1;
    } else if (run.verified) {
      verifiedRuns += 1;
      verifiedUnits += run.verifiedUnits;
    }
  });
  return {
    cap,
    runs: runs.length,
    cutRuns,
    lostVerifiedRuns,
    verifiedRuns,
    verifiedUnits,
    costUsd,
    costPerVerifiedUnit: costPerVerifiedUnit(costUsd, verifiedUnits),
  };
}

/** The runs replayed under both caps; `cap` of the outcome is the step cap (or Infinity). */
export function simulateCaps(runs: readonly CapRun[], caps: Caps): CapOutcome {
  const prepared = runs.map(prepare);
  const maxSteps = caps.maxSteps ?? Infinity;
  return outcome(maxSteps, prepared, (run) =>
    Math.min(maxSteps, stepsUnderDollarCap(run, caps.maxUsd)),
  );
}

/** Cost per verified unit at each step cap 1 … (longest run), under an optional dollar cap. */
export function stepCapCurve(
  runs: readonly CapRun[],
  options: { maxUsd?: number | null; caps?: readonly number[] } = {},
): CapOutcome[] {
  const prepared = runs.map(prepare);
  const dollarLimited = prepared.map((run) => stepsUnderDollarCap(run, options.maxUsd));
  const caps = options.caps ?? stepCaps(runs);
  return caps.map((cap) =>
    outcome(cap, prepared, (_run, index) => Math.min(cap, dollarLimited[index] as number)),
  );
}

/** Cost per verified unit at each dollar cap, under an optional step cap. */
export function dollarCapCurve(
  runs: readonly CapRun[],
  options: { maxSteps?: number | null; caps?: readonly number[] } = {},
): CapOutcome[] {
  const prepared = runs.map(prepare);
  const maxSteps = options.maxSteps ?? Infinity;
  const caps = options.caps ?? dollarCaps(runs);
  return caps.map((cap) =>
    outcome(cap, prepared, (run) => Math.min(maxSteps, stepsUnderDollarCap(run, cap))),
  );
}

/** 1 … the longest run's step count. */
export function stepCaps(runs: readonly CapRun[]): number[] {
  const longest = runs.reduce((max, run) => Math.max(max, run.stepCosts.length), 0);
  return Array.from({ length: longest }, (_, k) => k + 1);
}

/**
 * The dollar caps worth trying: the spend after each step of each run. The outcome only changes
 * as the cap passes one of these (a step runs when the spend before it is under the cap), and at
 * a run's own total the run completes. Thinned evenly to at most `limit` when there are more.
 */
export function dollarCaps(runs: readonly CapRun[], limit = 200): number[] {
  const points = new Set<number>();
  for (const run of runs.map(prepare)) {
    for (let k = 1; k < run.before.length; k++) points.add(round(run.before[k] as number));
  }
  const sorted = [...points].filter((p) => p > 0).sort((a, b) => a - b);
  if (sorted.length <= limit) return sorted;
  const step = (sorted.length - 1) / (limit - 1);
  return Array.from({ length: limit }, (_, k) => sorted[Math.round(k * step)] as number);
}

/**
 * The cap with the lowest cost per verified unit. Ties go to the cap that keeps more verified
 * units, then to the smaller cap. Null when no cap leaves anything verified.
 */
export function bestCap(curve: readonly CapOutcome[]): CapOutcome | null {
  let best: CapOutcome | null = null;
  for (const point of curve) {
    if (point.costPerVerifiedUnit === null) continue;
    if (
      best === null ||
      best.costPerVerifiedUnit === null ||
      point.costPerVerifiedUnit < best.costPerVerifiedUnit - 1e-12 ||
      (Math.abs(point.costPerVerifiedUnit - best.costPerVerifiedUnit) <= 1e-12 &&
        point.verifiedUnits > best.verifiedUnits)
    ) {
      best = point;
    }
  }
  return best;
}

/** The recommended step ceiling is the longest verified run plus this margin. */
export const CEILING_MARGIN = { fraction: 0.2, minSteps: 2 } as const;

export interface StepCeiling {
  longestVerified: number;
  margin: number;
  ceiling: number;
}

/** Longest verified run plus max(2 steps, 20% of it rounded up); null without a verified run. */
export function recommendedStepCeiling(
  runs: readonly Pick<CapRun, 'stepCosts' | 'verified'>[],
): StepCeiling | null {
  let longest = -1;
  for (const run of runs) if (run.verified) longest = Math.max(longest, run.stepCosts.length);
  if (longest < 0) return null;
  const margin = Math.max(CEILING_MARGIN.minSteps, Math.ceil(longest * CEILING_MARGIN.fraction));
  return { longestVerified: longest, margin, ceiling: longest + margin };
}

function round(value: number): number {
  return Number(value.toPrecision(12));
}

/**
 * Step caps to chart: every cap up to the longest run when that is at most `limit`, else `limit`
 * evenly spaced ones. Always with every verified run's length: cost per verified unit only drops
 * where a cap lets one more verified run finish, so the optimum is one of those.
 */
export function stepCapCandidates(runs: readonly CapRun[], limit = 400): number[] {
  const all = stepCaps(runs);
  if (all.length <= limit) return all;
  const caps = new Set<number>();
  const step = (all.length - 1) / (limit - 1);
  for (let k = 0; k < limit; k++) caps.add(all[Math.round(k * step)] as number);
  for (const run of runs)
    if (run.verified && run.stepCosts.length > 0) caps.add(run.stepCosts.length);
  return [...caps].sort((a, b) => a - b);
}

export interface DeclaredLimit {
  /** The most common declared value (null when no run declared one). */
  common: number | null;
  /** Runs that declared the common value, and runs that declared any. */
  commonRuns: number;
  declaredRuns: number;
  runs: number;
  min: number | null;
  max: number | null;
}

/** What the runs declared as `loop.limits.max_steps` (or another limit), summarised. */
export function declaredLimit(values: readonly (number | null)[]): DeclaredLimit {
  const counts = new Map<number, number>();
  for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  let common: number | null = null;
  let commonRuns = 0;
  for (const [value, n] of counts) {
    if (n > commonRuns || (n === commonRuns && common !== null && value < common)) {
      common = value;
      commonRuns = n;
    }
  }
  const declared = [...counts.keys()];
  return {
    common,
    commonRuns,
    declaredRuns: [...counts.values()].reduce((s, n) => s + n, 0),
    runs: values.length,
    min: declared.length ? Math.min(...declared) : null,
    max: declared.length ? Math.max(...declared) : null,
  };
}

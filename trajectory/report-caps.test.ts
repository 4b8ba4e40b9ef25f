import { describe, expect, it } from 'vitest';
import {
  bestCap,
  declaredLimit,
  dollarCapCurve,
  dollarCaps,
  recommendedStepCeiling,
  simulateCaps,
  stepCapCandidates,
  stepCapCurve,
  stepCaps,
} from './report-caps';
import type { CapRun } from './report-caps';

const run = (steps: number, perStep: number, verified: boolean, units = 1): CapRun => ({
  stepCosts: new Array<number>(steps).fill(perStep),
  costUsd: steps * perStep,
  verified,
  verifiedUnits: verified ? units : 0,
});
const times = (n: number, make: () => CapRun) => Array.from({ length: n }, make);

// The loop: 20 runs, $8.00, 12 verified units.
//   9 short verified runs:   4 steps × $0.05   = $0.20 each → $1.80
//   3 long verified runs:   10 steps × $0.14   = $1.40 each → $4.20
//   8 runaway failed runs:  20 steps × $0.0125 = $0.25 each → $2.00
const loop: CapRun[] = [
  ...times(9, () => run(4, 0.05, true)),
  ...times(3, () => run(10, 0.14, true)),
  ...times(8, () => run(20, 0.0125, false)),
];

describe('simulateCaps', () => {
  it('without caps reproduces the runs as they were: $8.00 / 12 = $0.667', () => {
    const o = simulateCaps(loop, {});
    expect(o).toMatchObject({ runs: 20, cutRuns: 0, verifiedRuns: 12, verifiedUnits: 12 });
    expect(o.costUsd).toBeCloseTo(8.0, 10);
    expect(o.costPerVerifiedUnit).toBeCloseTo(0.6667, 4);
  });

  it('a 5-step cap cuts spend to $4.40 and verified to 9: $0.489', () => {
    // short runs untouched ($1.80, 9 units); long ones cut after 5 × $0.14 = $0.70 (×3 = $2.10,
    // no longer verified); runaways cut after 5 × $0.0125 = $0.0625 (×8 = $0.50)
    const o = simulateCaps(loop, { maxSteps: 5 });
    expect(o).toMatchObject({
      cutRuns: 11,
      lostVerifiedRuns: 3,
      verifiedRuns: 9,
      verifiedUnits: 9,
    });
    expect(o.costUsd).toBeCloseTo(4.4, 10);
    expect(o.costPerVerifiedUnit).toBeCloseTo(0.4889, 4);
  });

  it('a run exactly as long as the cap is not cut', () => {
    const o = simulateCaps(loop, { maxSteps: 10 });
    // long runs complete; runaways cut at 10 × $0.0125 = $0.125 (×8 = $1.00)
    expect(o).toMatchObject({ cutRuns: 8, lostVerifiedRuns: 0, verifiedUnits: 12 });
    expect(o.costUsd).toBeCloseTo(1.8 + 4.2 + 1.0, 10);
    expect(o.costPerVerifiedUnit).toBeCloseTo(7 / 12, 10);
  });

  it('a $0.20 dollar cap stops a run before the step that would start at or above $0.20', () => {
    // short runs: $0.15 before step 4 → step 4 runs → $0.20, complete and verified
    // long runs: $0.14 before step 2 → runs → $0.28 ≥ $0.20 → stop (×3 = $0.84, cut)
    // runaways: $0.20 after 16 steps (float noise and all) → stop (×8 = $1.60, cut)
    const o = simulateCaps(loop, { maxUsd: 0.2 });
    expect(o).toMatchObject({ cutRuns: 11, lostVerifiedRuns: 3, verifiedUnits: 9 });
    expect(o.costUsd).toBeCloseTo(1.8 + 0.84 + 1.6, 10);
    expect(o.costPerVerifiedUnit).toBeCloseTo(4.24 / 9, 10);
  });

  it('both caps: whichever comes first', () => {
    // step cap 12 alone leaves long runs whole; the $0.20 cap still cuts them at 2 steps
    const o = simulateCaps(loop, { maxSteps: 12, maxUsd: 0.2 });
    // runaways: the step cap (12 × $0.0125 = $0.15) comes before the dollar cap
    expect(o.costUsd).toBeCloseTo(1.8 + 0.84 + 8 * 0.15, 10);
    expect(o.verifiedUnits).toBe(9);
  });

  it('spend outside the steps is counted first and in full', () => {
    const withOverhead: CapRun = {
      stepCosts: [0.1, 0.1, 0.1],
      costUsd: 0.5,
      verified: true,
      verifiedUnits: 2,
    };
    expect(simulateCaps([withOverhead], { maxSteps: 1 })).toMatchObject({
      cutRuns: 1,
      verifiedUnits: 0,
      costPerVerifiedUnit: null,
    });
    expect(simulateCaps([withOverhead], { maxSteps: 1 }).costUsd).toBeCloseTo(0.3, 10);
    // $0.20 of overhead already reaches a $0.20 cap: no step runs
    expect(simulateCaps([withOverhead], { maxUsd: 0.2 }).costUsd).toBeCloseTo(0.2, 10);
    expect(simulateCaps([withOverhead], {})).toMatchObject({ verifiedUnits: 2, costUsd: 0.5 });
  });

  it('counts verified units, not runs', () => {
    const o = simulateCaps([run(2, 0.5, true, 5), run(3, 0.5, false)], { maxSteps: 2 });
    expect(o).toMatchObject({ verifiedRuns: 1, verifiedUnits: 5, costUsd: 2 });
    expect(o.costPerVerifiedUnit).toBeCloseTo(0.4, 10);
  });

  it('no runs, no ratio', () => {
    expect(simulateCaps([], { maxSteps: 3 })).toMatchObject({ runs: 0, costPerVerifiedUnit: null });
  });
});

describe('stepCapCurve and bestCap', () => {
  const curve = stepCapCurve(loop);

  it('has a point for every cap up to the longest run', () => {
    expect(stepCaps(loop)).toHaveLength(20);
    expect(curve.map((p) => p.cap)).toEqual(stepCaps(loop));
    expect(curve[19]!.costUsd).toBeCloseTo(8, 10);
  });

  it('has no ratio below the shortest verified run', () => {
    expect(curve.slice(0, 3).map((p) => p.costPerVerifiedUnit)).toEqual([null, null, null]);
  });

  it('marks the optimum: a 4-step cap keeps the 9 short runs at $3.88 / 9 = $0.431', () => {
    // cap 4: $1.80 + 3 × 4 × $0.14 ($1.68) + 8 × 4 × $0.0125 ($0.40) = $3.88
    const best = bestCap(curve)!;
    expect(best.cap).toBe(4);
    expect(best.costUsd).toBeCloseTo(3.88, 10);
    expect(best.costPerVerifiedUnit).toBeCloseTo(3.88 / 9, 10);
    expect(curve[4]!.costPerVerifiedUnit).toBeCloseTo(4.4 / 9, 10); // cap 5, as above
    expect(curve[9]!.costPerVerifiedUnit).toBeCloseTo(7 / 12, 10); // cap 10
  });

  it('applies a dollar cap to every point', () => {
    const capped = stepCapCurve(loop, { maxUsd: 0.2 });
    expect(capped[19]!.costUsd).toBeCloseTo(4.24, 10);
  });

  it('on ties keeps more verified units, then the smaller cap', () => {
    const tie = [
      { cap: 3, costPerVerifiedUnit: 0.5, verifiedUnits: 2 },
      { cap: 6, costPerVerifiedUnit: 0.5, verifiedUnits: 4 },
      { cap: 9, costPerVerifiedUnit: 0.5, verifiedUnits: 4 },
      { cap: 12, costPerVerifiedUnit: null, verifiedUnits: 0 },
    ].map((p) => ({ ...p, runs: 4, cutRuns: 0, lostVerifiedRuns: 0, verifiedRuns: 0, costUsd: 0 }));
    expect(bestCap(tie)?.cap).toBe(6);
    expect(bestCap([])).toBeNull();
    expect(bestCap(stepCapCurve([run(3, 1, false)]))).toBeNull();
  });
});

describe('dollarCapCurve', () => {
  it('tries the spend after each step and finds the same optimum by dollars', () => {
    const caps = dollarCaps([run(2, 0.5, true), run(3, 0.25, false)]);
    expect(caps).toEqual([0.25, 0.5, 0.75, 1]);
    const curve = dollarCapCurve([run(2, 0.5, true), run(3, 0.25, false)], { caps });
    // $0.25: verified run stops after step 1 ($0.50), failed one after 1 ($0.25): nothing verified
    expect(curve[0]).toMatchObject({ cutRuns: 2, costPerVerifiedUnit: null });
    // $0.75: the verified run gets its 2nd step ($1.00); the failed one all 3 ($0.75)
    expect(curve[2]!.costPerVerifiedUnit).toBeCloseTo(1.75, 10);
    // $0.50: verified run ($0.50 before step 2 ≥ cap) is cut
    expect(curve[1]!.costPerVerifiedUnit).toBeNull();
  });

  it('thins many caps evenly, keeping both ends', () => {
    const many = Array.from({ length: 50 }, (_, k) => run(10, (k % 7) * 0.1 + 0.01, false));
    const caps = dollarCaps(many, 20);
    expect(caps).toHaveLength(20);
    expect(caps).toEqual([...caps].sort((a, b) => a - b));
    expect(caps[19]).toBeCloseTo(Math.max(...many.map((r) => r.costUsd)), 6);
  });
});

describe('recommendedStepCeiling', () => {
  it.each([
    // longest verified, ceiling: + max(2, ⌈20%⌉)
    [[4, 10], 12], // 10 + 2
    [[4], 6], // 4 + 2
    [[25], 30], // 25 + 5
    [[11], 14], // 11 + ⌈2.2⌉ = 11 + 3
  ])('verified runs of %j steps → %i', (lengths, ceiling) => {
    const runs = [...lengths.map((n) => run(n, 0.1, true)), run(60, 0.1, false)];
    expect(recommendedStepCeiling(runs)?.ceiling).toBe(ceiling);
  });
  it('ignores runs that were not verified; null when none was', () => {
    expect(recommendedStepCeiling(loop)).toEqual({ longestVerified: 10, margin: 2, ceiling: 12 });
    expect(recommendedStepCeiling([run(40, 0.1, false)])).toBeNull();
  });
});

describe('stepCapCandidates', () => {
  it('is every cap while the longest run is short', () => {
    expect(stepCapCandidates(loop)).toEqual(stepCaps(loop));
  });
  it('thins a long tail evenly but keeps every verified length, so the optimum stays exact', () => {
    const runs = [run(7, 0.1, true), run(13, 0.1, true), run(1000, 0.01, false)];
    const caps = stepCapCandidates(runs, 10);
    expect(caps[0]).toBe(1);
    expect(caps.at(-1)).toBe(1000);
    expect(caps).toContain(7);
    expect(caps).toContain(13);
    expect(caps.length).toBeLessThanOrEqual(12);
    expect(bestCap(stepCapCurve(runs, { caps }))).toEqual(bestCap(stepCapCurve(runs)));
  });
});

describe('declaredLimit', () => {
  it.each([
    [[30, 30, 20, null], { common: 30, commonRuns: 2, declaredRuns: 3, runs: 4, min: 20, max: 30 }],
    [[null, null], { common: null, commonRuns: 0, declaredRuns: 0, runs: 2, min: null, max: null }],
    [[40, 20], { common: 20, commonRuns: 1, declaredRuns: 2, runs: 2, min: 20, max: 40 }], // tie: smaller
  ])('%j', (values, expected) => {
    expect(declaredLimit(values)).toEqual(expected);
  });
});

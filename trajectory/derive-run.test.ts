import { describe, expect, it } from 'vitest';
import { deriveRun } from './derive-run';
import type { RunInput } from './derive-run';
import { step, steps } from './test-steps';

const ended = (raw: string | null, extra: Partial<RunInput> = {}): RunInput => ({
  ended: true,
  exitReason: raw === null ? null : { raw, source: 'attribute' },
  exitDetail: null,
  verified: null,
  verifiedUnits: null,
  progressDirection: 'down',
  ...extra,
});

describe('deriveRun', () => {
  it('restart loop: repeat on the second restart, its spend and all after it wasted', () => {
    const run = steps({
      actions: ['check', 'restart', 'restart', 'restart'],
      results: ['down', 'ok', 'ok', 'ok'],
      costs: [0.01, 0.02, 0.03, 0.04],
    });
    const derived = deriveRun(ended('no_progress'), run);
    expect(derived.exitCategory).toBe('no_progress');
    expect(derived.flags.repeat).toEqual({ step: 3, of: 2 });
    expect(derived.steps.map((s) => s.signals)).toEqual([[], [], ['repeat'], ['repeat']]);
    expect(derived.firstLoopSignalAt).toBe(2);
    // The repeated call itself is the waste: 0.03 (step 3) + 0.04 (step 4).
    expect(derived.wastedUsd).toBeCloseTo(0.07, 12);
  });

  it('says goal met while the environment check failed: fabricated success', () => {
    const run = [
      step(1, { actionHash: 'edit' }),
      step(2, { actionHash: 'test', verdict: 'fail', verdictSource: 'environment' }),
    ];
    const derived = deriveRun(ended('goal_met'), run);
    expect(derived).toMatchObject({
      exitCategory: 'goal_satisfied',
      verification: 'contradicted',
      verifiedUnits: 0,
    });
    expect(derived.flags.fabricatedSuccess).toBe(true);
  });

  it('a self-graded pass is unverified; an environment pass verifies one unit unless told more', () => {
    expect(
      deriveRun(ended('goal_met'), [step(1, { verdict: 'pass', verdictSource: 'self' })]),
    ).toMatchObject({
      verification: 'unverified',
      verifiedUnits: 0,
    });
    expect(
      deriveRun(ended('goal_met'), [step(1, { verdict: 'pass', verdictSource: 'environment' })]),
    ).toMatchObject({
      verification: 'verified',
      verifiedUnits: 1,
    });
    expect(deriveRun(ended('goal_met', { verified: true, verifiedUnits: 7 }), [])).toMatchObject({
      verifiedUnits: 7,
    });
  });

  it('loop.verified from the review outside the agent overrides the verdicts', () => {
    const passing = [step(1, { verdict: 'pass', verdictSource: 'environment' })];
    expect(deriveRun(ended('goal_met', { verified: false }), passing).verification).toBe(
      'contradicted',
    );
  });

  it('the last environment verdict decides: a late pass after a fail verifies', () => {
    const run = [
      step(1, { verdict: 'fail', verdictSource: 'environment' }),
      step(2, { verdict: 'pass', verdictSource: 'environment' }),
      step(3, { verdict: 'fail', verdictSource: 'judge' }),
    ];
    expect(deriveRun(ended('goal_met'), run).verification).toBe('verified');
  });

  it('a verified run wastes nothing, whatever its signals', () => {
    const run = steps({ actions: ['a', 'a', 'a'], results: ['x', 'x', 'x'], costs: [1, 1, 1] });
    run[2] = { ...run[2]!, verdict: 'pass', verdictSource: 'environment' };
    expect(deriveRun(ended('goal_met'), run)).toMatchObject({
      verification: 'verified',
      wastedUsd: 0,
    });
  });

  it('an ended run without a reason is an unexplained stop; a run not ended is running', () => {
    expect(deriveRun(ended(null), [])).toMatchObject({
      exitCategory: 'unknown',
      flags: { unexplainedStop: true },
    });
    expect(deriveRun({ ...ended(null), ended: false }, [])).toMatchObject({
      exitCategory: 'running',
      flags: { unexplainedStop: false },
    });
  });

  it('budget exits carry their kind; the tool circuit names its tool', () => {
    // the same tool with different arguments: a circuit, not a repeat
    const run = [1, 2, 3].map((n) =>
      step(n, { action: 'db', actionHash: `db-${n}`, errorClass: 'transient' }),
    );
    const derived = deriveRun(ended('MaxTurnsExceeded'), run, {
      stallWindow: 5,
      toolCircuitThreshold: 3,
    });
    expect(derived).toMatchObject({ exitCategory: 'budget_exhausted', exitKind: 'steps' });
    expect(derived.flags.toolCircuit).toEqual({ step: 3, tool: 'db' });
    // a tool circuit is not a loop signal for wasted spend
    expect(derived.firstLoopSignalAt).toBeNull();
  });

  it('the stall window is per call and the revisit names the cycle in step numbers', () => {
    const run = steps({ states: ['A', 'B', 'A'], progress: [3, 3, 3] }).map((s, k) => ({
      ...s,
      index: (k + 1) * 10,
    }));
    const derived = deriveRun(ended('no_progress'), run, {
      stallWindow: 2,
      toolCircuitThreshold: 3,
    });
    expect(derived.flags.revisit).toEqual({ step: 30, of: 10, cycleLength: 20 });
    expect(derived.flags.stall).toEqual({ step: 30 });
    expect(derived.steps[2]?.stallSince).toBe(10);
  });

  it('says who settled verification: environment, review, a person', () => {
    const passing = [step(1, { verdict: 'pass', verdictSource: 'environment' })];
    expect(deriveRun(ended('goal_met'), passing).verificationSource).toBe('environment');
    expect(deriveRun(ended('goal_met', { verified: false }), passing)).toMatchObject({
      verification: 'contradicted',
      verificationSource: 'review',
    });
    expect(deriveRun(ended('goal_met'), [step(1)]).verificationSource).toBeNull();
  });

  it("a person's verdict beats every other, and fabricated success and waste follow it", () => {
    const passing = [
      ...steps({ actions: ['a', 'a', 'a', 'a'], costs: [1, 1, 1, 1] }),
      step(5, { verdict: 'pass', verdictSource: 'environment', costUsd: 1 }),
    ];
    const contradicted = deriveRun(
      ended('goal_met', { human: { verdict: 'contradicted', units: 0 } }),
      passing,
    );
    expect(contradicted).toMatchObject({
      verification: 'contradicted',
      verificationSource: 'human',
      verifiedUnits: 0,
    });
    expect(contradicted.flags.fabricatedSuccess).toBe(true);
    expect(contradicted.wastedUsd).toBeGreaterThan(0);
    const verified = deriveRun(
      ended('goal_met', { verified: false, human: { verdict: 'verified', units: 3 } }),
      passing,
    );
    expect(verified).toMatchObject({
      verification: 'verified',
      verificationSource: 'human',
      verifiedUnits: 3,
      wastedUsd: 0,
    });
    expect(verified.flags.fabricatedSuccess).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { bestCap, dollarCapCurve } from './report-caps';
import { optimaByAgent } from './report-caps-by-agent';

const run = (agent: string, stepCosts: number[], verified: boolean) => ({
  agent,
  stepCosts,
  costUsd: stepCosts.reduce((s, c) => s + c, 0),
  verified,
  verifiedUnits: verified ? 1 : 0,
});

// A cheap agent ($0.01 a step) and an expensive one ($1 a step), each with one runaway.
const runs = [
  run('cheap', [0.01, 0.01], true),
  run('cheap', [0.01, 0.01, 0.01], true),
  run('cheap', Array<number>(20).fill(0.01), false),
  run('costly', [1, 1], true),
  run('costly', [1, 1, 1], true),
  run('costly', Array<number>(20).fill(1), false),
];

describe('cap optima per agent', () => {
  it('finds each agent its own dollar cap, which the mix of both gets wrong', () => {
    const byAgent = new Map(optimaByAgent(runs).map((r) => [r.agent, r]));
    const cheap = byAgent.get('cheap');
    const costly = byAgent.get('costly');
    expect(cheap?.bestDollar?.cap).toBeCloseTo(0.03, 10);
    expect(cheap?.bestDollar?.lostVerifiedRuns).toBe(0);
    expect(costly?.bestDollar?.cap).toBeCloseTo(3, 10);
    expect(costly?.bestDollar?.lostVerifiedRuns).toBe(0);
    // Over both agents the cheap agent's cap wins, and it cuts every verified run of the other.
    const mixed = bestCap(dollarCapCurve(runs));
    expect(mixed?.cap).toBeCloseTo(0.03, 10);
    expect(mixed?.lostVerifiedRuns).toBe(2);
    expect(cheap?.bestStep?.cap).toBe(3);
    expect(cheap?.asRecorded).toBeCloseTo(0.25 / 2, 10);
  });

  it('lists agents with the most runs first', () => {
    const rows = optimaByAgent([...runs, run('costly', [1], true)]);
    expect(rows.map((r) => [r.agent, r.runs])).toEqual([
      ['costly', 4],
      ['cheap', 3],
    ]);
  });
});

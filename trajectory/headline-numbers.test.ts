import { describe, expect, it } from 'vitest';
import { EMPTY_TOTALS, headlineFigures, headlineNumbers, previousWindow } from './headline-numbers';

describe('headline numbers', () => {
  it('derive the shares and cost per verified unit from the sums', () => {
    expect(
      headlineFigures({ runs: 20, costUsd: 8, wastedUsd: 2, loopRuns: 5, verifiedUnits: 12 }),
    ).toEqual({
      runs: 20,
      costUsd: 8,
      wastedUsd: 2,
      wastedShare: 0.25,
      loopRate: 0.25,
      costPerVerifiedUnit: 8 / 12,
    });
  });

  it('leave a ratio with nothing to divide by empty, not 0', () => {
    expect(headlineFigures(EMPTY_TOTALS)).toEqual({
      runs: 0,
      costUsd: 0,
      wastedUsd: 0,
      wastedShare: null,
      loopRate: null,
      costPerVerifiedUnit: null,
    });
  });

  it('compare each figure with the previous window', () => {
    const numbers = headlineNumbers(
      { runs: 30, costUsd: 12, wastedUsd: 3, loopRuns: 3, verifiedUnits: 0 },
      { runs: 20, costUsd: 8, wastedUsd: 0, loopRuns: 5, verifiedUnits: 4 },
    );
    const by = Object.fromEntries(numbers.map((n) => [n.figure, n]));
    expect(by.runs?.change).toEqual({ absolute: 10, relative: 0.5 });
    expect(by.wastedUsd?.change).toEqual({ absolute: 3, relative: null });
    expect(by.wastedShare?.change?.absolute).toBeCloseTo(0.25);
    expect(by.loopRate?.change?.absolute).toBeCloseTo(-0.15);
    expect(by.costPerVerifiedUnit).toEqual({
      figure: 'costPerVerifiedUnit',
      value: null,
      previous: 2,
      change: null,
    });
  });

  it('take the window of the same length just before', () => {
    const window = { from: new Date('2026-11-24T12:00:00Z'), to: new Date('2026-12-01T12:00:00Z') };
    expect(previousWindow(window)).toEqual({
      from: new Date('2026-11-17T12:00:00Z'),
      to: new Date('2026-11-24T12:00:00Z'),
    });
  });
});

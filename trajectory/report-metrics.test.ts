import { describe, expect, it } from 'vitest';
import {
  binOf,
  change,
  costPerVerifiedUnit,
  histogram,
  histogramLayout,
  passRate,
  percentile,
} from './report-metrics';

describe('costPerVerifiedUnit: all spend, failures included, over verified units', () => {
  it.each([
    // docs/conventions.md: 20 runs, $8.00, 12 verified units
    [8.0, 12, 0.6667],
    // the same loop with controls: spend $4.40, 9 verified units
    [4.4, 9, 0.4889],
    [0.5, 1, 0.5],
    [0, 3, 0],
    [1.25, 0.5, 2.5],
  ])('$%d over %d units is $%d', (cost, units, expected) => {
    expect(costPerVerifiedUnit(cost, units)).toBeCloseTo(expected, 4);
  });

  it.each([
    [8.0, 0],
    [0, 0],
    [3, -1],
  ])('is null, never a division by zero, when nothing was verified ($%d, %d units)', (c, u) => {
    expect(costPerVerifiedUnit(c, u)).toBeNull();
  });

  it('rounds to the dollars the issue quotes', () => {
    expect(costPerVerifiedUnit(8, 12)!.toFixed(3)).toBe('0.667');
    expect(costPerVerifiedUnit(4.4, 9)!.toFixed(3)).toBe('0.489');
  });
});

describe('passRate', () => {
  it.each([
    [12, 20, 0.6],
    [0, 5, 0],
    [3, 3, 1],
  ])('%i of %i runs verified is %d', (verified, runs, expected) => {
    expect(passRate(verified, runs)).toBeCloseTo(expected, 10);
  });
  it('is null without runs', () => {
    expect(passRate(0, 0)).toBeNull();
  });
});

describe('percentile: linear interpolation, as percentile_cont', () => {
  const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  it.each([
    [ten, 0.5, 5.5], // (n-1)·p = 4.5 → between 5 and 6
    [ten, 0.95, 9.55], // 8.55 → 9 + 0.55
    [ten, 0, 1],
    [ten, 1, 10],
    [[10, 1, 7, 3], 0.5, 5], // unsorted input: 1 3 7 10 → between 3 and 7
    [[4], 0.95, 4],
    [[0.1, 0.1, 0.1, 0.1, 2.0], 0.5, 0.1], // a long tail does not move the median…
    [[0.1, 0.1, 0.1, 0.1, 2.0], 0.95, 1.62], // …but p95: position 3.8 → 0.1 + 0.8·1.9
  ])('%j at p=%d is %d', (values, p, expected) => {
    expect(percentile(values, p)).toBeCloseTo(expected, 10);
  });
  it('is null for no values or a p outside 0..1', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([1], 1.5)).toBeNull();
    expect(percentile([1], Number.NaN)).toBeNull();
  });
});

describe('change from the previous week', () => {
  it.each([
    [0.489, 0.667, -0.178, -0.26687],
    [0.5, 0.25, 0.25, 1],
    [0.2, 0, 0.2, null],
  ])('%d after %d', (current, previous, absolute, relative) => {
    const c = change(current, previous)!;
    expect(c.absolute).toBeCloseTo(absolute, 10);
    if (relative === null) expect(c.relative).toBeNull();
    else expect(c.relative).toBeCloseTo(relative, 4);
  });
  it('is null when either week has no cost per verified unit', () => {
    expect(change(null, 0.5)).toBeNull();
    expect(change(0.5, null)).toBeNull();
  });
});

describe('histogramLayout', () => {
  it.each([
    // max, layout
    [2.0, { lo: 0, hi: 2, bins: 20, width: 0.1 }],
    [0.37, { lo: 0, hi: 0.38, bins: 19, width: 0.02 }],
    [7.3, { lo: 0, hi: 7.5, bins: 15, width: 0.5 }],
    [0, { lo: 0, hi: 1, bins: 1, width: 1 }],
  ])('dollars up to %d', (max, layout) => {
    const got = histogramLayout(max);
    expect(got.lo).toBe(layout.lo);
    expect(got.bins).toBe(layout.bins);
    expect(got.width).toBeCloseTo(layout.width, 12);
    expect(got.hi).toBeCloseTo(layout.hi, 12);
  });

  it.each([
    [12, { lo: 0.5, hi: 12.5, bins: 12, width: 1 }], // one bin per step count
    [45, { lo: 0.5, hi: 45.5, bins: 15, width: 3 }], // 1–3, 4–6, … 43–45
    [0, { lo: 0.5, hi: 1.5, bins: 1, width: 1 }],
  ])('whole steps up to %d', (max, layout) => {
    expect(histogramLayout(max, { integer: true })).toEqual(layout);
  });

  it('puts each value in its bin and the maximum in the last', () => {
    const dollars = histogramLayout(2.0);
    expect(binOf(dollars, 0)).toBe(0);
    expect(binOf(dollars, 0.25)).toBe(2);
    expect(binOf(dollars, 2.0)).toBe(19);
    const steps = histogramLayout(45, { integer: true });
    expect([1, 3, 4, 45].map((v) => binOf(steps, v))).toEqual([0, 0, 1, 14]);
    expect(histogram(histogramLayout(4, { integer: true }), [1, 1, 2, 4, 4, 4])).toEqual([
      2, 1, 0, 3,
    ]);
  });
});

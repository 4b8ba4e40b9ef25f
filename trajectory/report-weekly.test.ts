import { describe, expect, it } from 'vitest';
import { compareGroups, weeklyRows, weeklySeries } from './report-weekly';
import type { WeeklyTotals } from './report-weekly';

const totals = (
  weekStart: string,
  group: string | null,
  costUsd: number,
  verifiedUnits: number,
): WeeklyTotals => ({
  weekStart,
  group,
  runs: 20,
  verifiedRuns: verifiedUnits,
  verifiedUnits,
  costUsd,
  wastedUsd: 0,
  unpricedRuns: 0,
});

describe('weeklyRows', () => {
  const rows = weeklyRows([
    totals('2026-12-28', 'controlled', 4.4, 9),
    totals('2026-12-21', 'controlled', 8.0, 12),
    totals('2027-01-04', 'controlled', 3.0, 0),
    totals('2027-01-11', 'controlled', 2.0, 4),
    totals('2026-12-28', 'uncontrolled', 8.0, 12),
    totals('2027-01-11', 'uncontrolled', 6.0, 10), // nothing the week before
    totals('2026-12-28', null, 1.0, 1),
  ]);

  it('labels ISO weeks across the year boundary and sorts by week, then group', () => {
    expect(rows.map((r) => [r.week, r.group])).toEqual([
      ['2026-W52', 'controlled'],
      ['2026-W53', 'controlled'],
      ['2026-W53', 'uncontrolled'],
      ['2026-W53', null],
      ['2027-W01', 'controlled'],
      ['2027-W02', 'controlled'],
      ['2027-W02', 'uncontrolled'],
    ]);
  });

  it('compares each group with its own calendar week before', () => {
    const byKey = new Map(rows.map((r) => [`${r.week} ${r.group}`, r]));
    const w53 = byKey.get('2026-W53 controlled')!;
    expect(w53.costPerVerifiedUnit).toBeCloseTo(0.4889, 4);
    expect(w53.previousCostPerVerifiedUnit).toBeCloseTo(0.6667, 4);
    expect(w53.change?.absolute).toBeCloseTo(0.4889 - 0.6667, 3);
    expect(w53.change?.relative).toBeCloseTo(-0.2667, 3);
    // nothing verified: no ratio, so no change either way
    expect(byKey.get('2027-W01 controlled')).toMatchObject({
      costPerVerifiedUnit: null,
      change: null,
    });
    expect(byKey.get('2027-W02 controlled')).toMatchObject({
      costPerVerifiedUnit: 0.5,
      previousCostPerVerifiedUnit: null,
      change: null,
    });
    // a gap week is not bridged to an older week
    expect(byKey.get('2027-W02 uncontrolled')?.change).toBeNull();
    expect(byKey.get('2026-W52 controlled')?.change).toBeNull();
  });
});

describe('compareGroups', () => {
  it('sorts names, the unnamed group last', () => {
    expect(['b', null, 'a'].sort(compareGroups)).toEqual(['a', 'b', null]);
  });
});

describe('weeklySeries', () => {
  it('puts every week of the window on the axis and leaves gaps, one series per group', () => {
    const rows = weeklyRows([
      totals('2026-12-21', 'b', 1, 2),
      totals('2027-01-04', 'b', 3, 0),
      totals('2027-01-04', 'a', 1, 4),
    ]);
    expect(weeklySeries(rows, ['2026-12-21', '2026-12-28', '2027-01-04'])).toEqual({
      groups: ['a', 'b'],
      points: [
        { week: '2026-W52', weekStart: '2026-12-21', values: [null, 0.5] },
        { week: '2026-W53', weekStart: '2026-12-28', values: [null, null] },
        { week: '2027-W01', weekStart: '2027-01-04', values: [0.25, null] },
      ],
    });
  });
});

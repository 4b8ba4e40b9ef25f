import { describe, expect, it } from 'vitest';
import { weeklyRows } from '@/trajectory/report-weekly';
import {
  WEEKLY_PAGE_COLUMNS,
  toWeeklyJson,
  toWeeklyPageRow,
  weeklyCsv,
  weeklyFilename,
} from './weekly-export';

const rows = weeklyRows([
  {
    weekStart: '2026-11-23',
    group: 'controlled',
    runs: 20,
    verifiedRuns: 9,
    verifiedUnits: 9,
    costUsd: 4.4,
    wastedUsd: 0.3,
    unpricedRuns: 0,
  },
  {
    weekStart: '2026-11-23',
    group: null,
    runs: 2,
    verifiedRuns: 0,
    verifiedUnits: 0,
    costUsd: 0.5,
    wastedUsd: 0,
    unpricedRuns: 1,
  },
  {
    weekStart: '2026-11-30',
    group: 'a "quoted", name',
    runs: 1,
    verifiedRuns: 1,
    verifiedUnits: 2,
    costUsd: 1,
    wastedUsd: 0,
    unpricedRuns: 0,
  },
  {
    weekStart: '2026-11-30',
    group: '=HYPERLINK("x")',
    runs: 1,
    verifiedRuns: 1,
    verifiedUnits: 1,
    costUsd: 0.25,
    wastedUsd: 0,
    unpricedRuns: 0,
  },
]);

describe('weekly report export', () => {
  it('JSON rows carry exactly the documented names, null when nothing was verified', () => {
    const json = rows.map(toWeeklyJson);
    expect(Object.keys(json[0]!)).toEqual([
      'week',
      'group',
      'runs',
      'verifiedRuns',
      'verifiedUnits',
      'costUsd',
      'costPerVerifiedUnit',
    ]);
    expect(json[1]).toEqual({
      week: '2026-W48',
      group: null,
      runs: 2,
      verifiedRuns: 0,
      verifiedUnits: 0,
      costUsd: 0.5,
      costPerVerifiedUnit: null,
    });
  });

  it('CSV has a header, the same columns, empty cells for null and quoted text', () => {
    expect(weeklyCsv(rows.map(toWeeklyJson)).split('\r\n')).toEqual([
      'week,group,runs,verifiedRuns,verifiedUnits,costUsd,costPerVerifiedUnit',
      `"2026-W48","controlled",20,9,9,4.4,${4.4 / 9}`,
      '"2026-W48",,2,0,0,0.5,',
      '"2026-W49","\'=HYPERLINK(""x"")",1,1,1,0.25,0.25',
      '"2026-W49","a ""quoted"", name",1,1,2,1,0.5',
      '',
    ]);
  });

  it.each([
    ["a;=cmd|' /C calc'!A0", `"a;'=cmd|' /C calc'!A0"`],
    ['x,+1', `"x,'+1"`],
    ['x|-1;@SUM(A1)', `"x|'-1;'@SUM(A1)"`],
    ['a\t=1', `"a\t'=1"`],
    ['\t=1', `"'\t'=1"`],
    ['plain; text', '"plain; text"'],
  ])('quotes group %j and guards every formula start: %s', (group, cell) => {
    const csv = weeklyCsv([
      {
        week: '2026-W49',
        group,
        runs: 1,
        verifiedRuns: 0,
        verifiedUnits: 0,
        costUsd: 0,
        costPerVerifiedUnit: null,
      },
    ]);
    expect(csv.split('\r\n')[1]).toBe(`"2026-W49",${cell},1,0,0,0,`);
  });

  it('the page’s download holds what the page shows: wasted spend, the weekly change, named groups', () => {
    const csv = weeklyCsv(
      rows.map((r) => toWeeklyPageRow(r, 'model')),
      WEEKLY_PAGE_COLUMNS,
    ).split('\r\n');
    expect(csv[0]).toBe(
      'week,weekStart,group,runs,verifiedRuns,verifiedUnits,costUsd,unpricedRuns,wastedUsd,' +
        'costPerVerifiedUnit,previousCostPerVerifiedUnit,changeUsd,changePercent',
    );
    expect(csv[1]).toBe(`"2026-W48","2026-11-23","controlled",20,9,9,4.4,0,0.3,${4.4 / 9},,,`);
    // Runs that name no model are "(no model)", not an empty cell.
    expect(csv[2]).toBe('"2026-W48","2026-11-23","(no model)",2,0,0,0.5,1,0,,,,');
  });

  it('the week-on-week change is in dollars and percent, as the table shows it', () => {
    const [, , next] = weeklyRows([
      { ...base, weekStart: '2026-11-23', costUsd: 4, verifiedUnits: 8 },
      { ...base, weekStart: '2026-11-30', costUsd: 6, verifiedUnits: 8 },
      { ...base, weekStart: '2026-12-07', costUsd: 3, verifiedUnits: 8 },
    ]).map((r) => toWeeklyPageRow(r, 'agent'));
    expect(next).toMatchObject({
      group: 'bot',
      costPerVerifiedUnit: 0.375,
      previousCostPerVerifiedUnit: 0.75,
      changeUsd: -0.375,
      changePercent: -50,
    });
  });

  it('is named by the ISO weeks it holds, not by a Monday that reads as the last day', () => {
    expect(weeklyFilename('2026-09-14', '2026-11-30', 'agent')).toBe(
      'loopscope-weekly-agent-2026-W38-to-2026-W49.csv',
    );
  });
});

const base = {
  group: 'bot',
  runs: 8,
  verifiedRuns: 8,
  verifiedUnits: 8,
  costUsd: 1,
  wastedUsd: 0,
  unpricedRuns: 0,
};

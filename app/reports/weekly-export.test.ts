import { describe, expect, it } from 'vitest';
import { weeklyRows } from '@/trajectory/report-weekly';
import { toWeeklyJson, weeklyCsv } from './weekly-export';

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
});

import { describe, expect, it } from 'vitest';
import {
  isoWeek,
  isoWeekOfDate,
  isoWeekStartMs,
  isoWeeksInYear,
  lastThursdayNoonMs,
  utcDate,
  weekStartsBetween,
} from './report-weeks';

const at = (iso: string) => Date.parse(iso);

describe('isoWeek: weeks start on Monday (UTC), week 1 holds the first Thursday', () => {
  it.each([
    // 2026 starts on a Thursday, so it has a week 53 that runs into 2027.
    ['2026-01-01T12:00:00Z', '2026-W01', '2025-12-29'],
    ['2025-12-29T00:00:00Z', '2026-W01', '2025-12-29'], // Monday of 2026-W01, still in 2025
    ['2025-12-28T23:59:59.999Z', '2025-W52', '2025-12-22'], // the Sunday before
    ['2026-11-23T00:00:00Z', '2026-W48', '2026-11-23'],
    ['2026-11-29T23:59:59.999Z', '2026-W48', '2026-11-23'],
    ['2026-11-30T00:00:00Z', '2026-W49', '2026-11-30'],
    ['2026-12-28T00:00:00Z', '2026-W53', '2026-12-28'],
    ['2026-12-31T23:00:00Z', '2026-W53', '2026-12-28'],
    ['2027-01-01T00:00:00Z', '2026-W53', '2026-12-28'], // a Friday: last year's week 53
    ['2027-01-03T23:59:59Z', '2026-W53', '2026-12-28'], // the Sunday that ends it
    ['2027-01-04T00:00:00Z', '2027-W01', '2027-01-04'],
    // A year whose 1 January is in the previous year's week 52.
    ['2022-01-01T00:00:00Z', '2021-W52', '2021-12-27'],
    ['2022-01-03T00:00:00Z', '2022-W01', '2022-01-03'],
    // Late December in next year's week 1.
    ['2024-12-30T00:00:00Z', '2025-W01', '2024-12-30'],
    ['2019-12-31T00:00:00Z', '2020-W01', '2019-12-30'],
    // A leap year that starts on a Wednesday has 53 weeks.
    ['2020-12-31T00:00:00Z', '2020-W53', '2020-12-28'],
    ['2021-01-03T00:00:00Z', '2020-W53', '2020-12-28'],
  ])('%s is in %s (Monday %s)', (instant, label, monday) => {
    const week = isoWeek(at(instant));
    expect(week.label).toBe(label);
    expect(utcDate(week.startMs)).toBe(monday);
    expect(isoWeekStartMs(at(instant))).toBe(week.startMs);
  });

  it('reads a rollup week_start date', () => {
    expect(isoWeekOfDate('2026-12-28')).toMatchObject({ year: 2026, week: 53, label: '2026-W53' });
  });
});

describe('isoWeeksInYear', () => {
  it.each([
    [2015, 53], // starts on a Thursday
    [2019, 52],
    [2020, 53], // leap year starting on a Wednesday
    [2021, 52],
    [2024, 52], // leap year starting on a Monday
    [2025, 52],
    [2026, 53], // starts on a Thursday
    [2027, 52],
    [2032, 53], // leap year starting on a Thursday
  ])('%i has %i weeks', (year, weeks) => {
    expect(isoWeeksInYear(year)).toBe(weeks);
  });
});

describe('weekStartsBetween', () => {
  it('lists every week that overlaps the window, across the year boundary', () => {
    const weeks = weekStartsBetween(at('2026-12-20T00:00:00Z'), at('2027-01-12T00:00:00Z'));
    expect(weeks.map((ms) => isoWeek(ms).label)).toEqual([
      '2026-W51',
      '2026-W52',
      '2026-W53',
      '2027-W01',
      '2027-W02',
    ]);
  });

  it('a window that ends on a Monday excludes that week; an empty window has none', () => {
    expect(
      weekStartsBetween(at('2026-11-23T00:00:00Z'), at('2026-11-30T00:00:00Z')).map(utcDate),
    ).toEqual(['2026-11-23']);
    expect(weekStartsBetween(at('2026-11-30T00:00:00Z'), at('2026-11-30T00:00:00Z'))).toEqual([]);
  });
});

describe('lastThursdayNoonMs: the latest Thursday 12:00 UTC at or before a moment', () => {
  it.each([
    ['2026-12-10T12:00:00Z', '2026-12-10T12:00:00.000Z'], // the moment itself
    ['2026-12-10T11:59:59.999Z', '2026-12-03T12:00:00.000Z'],
    ['2026-12-13T23:59:30Z', '2026-12-10T12:00:00.000Z'], // the Sunday before a week's edge
    ['2026-12-14T00:00:00Z', '2026-12-10T12:00:00.000Z'], // Monday: still last week's
    ['2027-01-01T00:05:00Z', '2026-12-31T12:00:00.000Z'], // across a year
  ])('%s → %s', (moment, thursday) => {
    expect(new Date(lastThursdayNoonMs(at(moment))).toISOString()).toBe(thursday);
  });
});

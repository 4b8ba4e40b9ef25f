import { describe, expect, it } from 'vitest';
import {
  addDays,
  describeTimeZone,
  isDay,
  isTimeZone,
  startOfZonedDayMs,
  zonedDay,
  zonedDayStartMs,
  zoneOffsetMs,
} from './time-zone';

const HOUR = 3_600_000;

describe('days and offsets in a time zone', () => {
  it('knows time zones by their IANA names', () => {
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  it('reads offsets across daylight saving time', () => {
    expect(zoneOffsetMs(Date.parse('2026-01-15T12:00:00Z'), 'Europe/Berlin')).toBe(HOUR);
    expect(zoneOffsetMs(Date.parse('2026-07-15T12:00:00Z'), 'Europe/Berlin')).toBe(2 * HOUR);
    expect(zoneOffsetMs(Date.parse('2026-07-15T12:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * HOUR);
    expect(zoneOffsetMs(Date.parse('2026-07-15T12:00:00Z'), 'America/New_York')).toBe(-4 * HOUR);
    expect(zoneOffsetMs(Date.parse('2026-07-15T12:00:00Z'), 'UTC')).toBe(0);
  });

  it('puts a day at its own midnight, also on the days the clocks change', () => {
    expect(new Date(zonedDayStartMs('2026-01-01', 'UTC')).toISOString()).toBe(
      '2026-01-01T00:00:00.000Z',
    );
    expect(new Date(zonedDayStartMs('2026-01-01', 'Europe/Berlin')).toISOString()).toBe(
      '2025-12-31T23:00:00.000Z',
    );
    // Berlin moves to summer time at 02:00 on 2026-03-29: that day has 23 hours.
    const start = zonedDayStartMs('2026-03-29', 'Europe/Berlin');
    const next = zonedDayStartMs('2026-03-30', 'Europe/Berlin');
    expect(new Date(start).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(next - start).toBe(23 * HOUR);
    expect(new Date(zonedDayStartMs('2026-07-01', 'Asia/Kolkata')).toISOString()).toBe(
      '2026-06-30T18:30:00.000Z',
    );
    expect(new Date(zonedDayStartMs('2026-11-01', 'America/New_York')).toISOString()).toBe(
      '2026-11-01T04:00:00.000Z',
    );
  });

  it('names the day of an instant in the zone, and its start', () => {
    const late = Date.parse('2026-11-30T23:30:00Z');
    expect(zonedDay(late, 'UTC')).toBe('2026-11-30');
    expect(zonedDay(late, 'Europe/Berlin')).toBe('2026-12-01');
    expect(zonedDay(late, 'America/Los_Angeles')).toBe('2026-11-30');
    expect(new Date(startOfZonedDayMs(late, 'Europe/Berlin')).toISOString()).toBe(
      '2026-11-30T23:00:00.000Z',
    );
  });

  it('checks and steps calendar days', () => {
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-2-3')).toBe(false);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('describes a zone with its offset', () => {
    expect(describeTimeZone('UTC')).toBe('UTC');
    expect(describeTimeZone('Europe/Berlin', Date.parse('2026-01-15T12:00:00Z'))).toBe(
      'Europe/Berlin (UTC+1)',
    );
    expect(describeTimeZone('Asia/Kolkata', Date.parse('2026-01-15T12:00:00Z'))).toBe(
      'Asia/Kolkata (UTC+5:30)',
    );
    expect(describeTimeZone('America/New_York', Date.parse('2026-01-15T12:00:00Z'))).toBe(
      'America/New_York (UTC−5)',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { encodeRunCursor } from '@/lib/run-cursor';
import { parseHomeQuery } from './search-params';

const now = new Date('2026-11-30T12:00:00Z');
const DAY = 24 * 3600_000;

describe('the home page URL', () => {
  it('defaults to the last 30 days (every page’s window), newest first', () => {
    const parsed = parseHomeQuery({}, now, 'UTC');
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    expect(parsed.query.choice).toBe('30d');
    expect(parsed.query.window).toMatchObject({
      from: new Date(now.getTime() - 30 * DAY),
      to: now,
    });
    expect(parsed.query.params).toMatchObject({ sort: 'startedAt', order: 'desc', limit: 50 });
  });

  it('reads presets, filters, the project and the zone, and keeps only known keys for links', () => {
    const parsed = parseHomeQuery(
      {
        window: '24h',
        exitCategory: 'no_progress',
        flag: 'revisit',
        project: 'p',
        tz: 'Europe/Berlin',
        junk: 'x',
      },
      now,
      'Europe/Berlin',
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    expect(parsed.query.window.from).toEqual(new Date(now.getTime() - DAY));
    expect(parsed.query.params).toMatchObject({ exitCategory: 'no_progress', flag: 'revisit' });
    expect(parsed.query.raw).toEqual({
      window: '24h',
      exitCategory: 'no_progress',
      flag: 'revisit',
      project: 'p',
      tz: 'Europe/Berlin',
    });
  });

  it('takes a custom range of days in the page’s zone, `to` included', () => {
    const parsed = parseHomeQuery(
      { window: 'custom', from: '2026-01-01', to: '2026-01-31' },
      now,
      'UTC',
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    expect(parsed.query.choice).toBe('custom');
    expect(parsed.query.window).toMatchObject({
      from: new Date('2026-01-01T00:00:00Z'),
      to: new Date('2026-02-01T00:00:00Z'),
    });
    const tokyo = parseHomeQuery({ from: '2026-01-01', to: '2026-01-31' }, now, 'Asia/Tokyo');
    expect(tokyo.ok && tokyo.query.window.from).toEqual(new Date('2025-12-31T15:00:00Z'));
    const instant = parseHomeQuery({ to: '2026-01-31T06:00:00Z' }, now, 'UTC');
    expect(instant.ok && instant.query.window.to).toEqual(new Date('2026-01-31T06:00:00Z'));
    expect(instant.ok && instant.query.choice).toBe('custom');
  });

  it('names every parameter it cannot read, not only the first', () => {
    const bad = parseHomeQuery(
      { exitCategory: 'nope', from: '2026-13-01', flag: 'loopy', tz: 'Mars/Olympus_Mons' },
      now,
      'UTC',
    );
    expect(bad.ok).toBe(false);
    const problems = bad.ok ? [] : bad.problems;
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'exitCategory',
      'flag',
      'from',
      'tz',
    ]);
    expect(problems.find((p) => p.startsWith('from'))).toMatch(/YYYY-MM-DD/);
    expect(parseHomeQuery({ from: '2026-02-01', to: '2026-01-01' }, now, 'UTC')).toEqual({
      ok: false,
      problems: ['from: must be before to'],
    });
  });

  it('checks the cursor before the list reads with it', () => {
    const good = encodeRunCursor('costUsd', 0.5, 'run-1');
    expect(parseHomeQuery({ sort: 'costUsd', cursor: good }, now, 'UTC').ok).toBe(true);
    const otherSort = parseHomeQuery({ sort: 'stepCount', cursor: good }, now, 'UTC');
    expect(otherSort).toEqual({
      ok: false,
      problems: ['cursor: is not one this list handed out (or the sort changed)'],
    });
    expect(parseHomeQuery({ cursor: '!!not base64' }, now, 'UTC').ok).toBe(false);
  });
});

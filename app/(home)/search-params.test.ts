import { describe, expect, it } from 'vitest';
import { parseHomeQuery } from './search-params';

const now = new Date('2026-11-30T12:00:00Z');
const DAY = 24 * 3600_000;

describe('the home page URL', () => {
  it('defaults to the last 7 days, newest first', () => {
    const parsed = parseHomeQuery({}, now);
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.query.choice).toBe('7d');
    expect(parsed.query.window).toEqual({ from: new Date(now.getTime() - 7 * DAY), to: now });
    expect(parsed.query.params).toMatchObject({ sort: 'startedAt', order: 'desc', limit: 50 });
  });

  it('reads presets, filters and the project, and keeps only known keys for links', () => {
    const parsed = parseHomeQuery(
      { window: '24h', exitCategory: 'no_progress', flag: 'revisit', project: 'p', junk: 'x' },
      now,
    );
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.query.window.from).toEqual(new Date(now.getTime() - DAY));
    expect(parsed.query.params).toMatchObject({ exitCategory: 'no_progress', flag: 'revisit' });
    expect(parsed.query.raw).toEqual({
      window: '24h',
      exitCategory: 'no_progress',
      flag: 'revisit',
      project: 'p',
    });
  });

  it('takes a custom range whose `to` date includes that whole day', () => {
    const parsed = parseHomeQuery({ window: 'custom', from: '2026-01-01', to: '2026-01-31' }, now);
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.query.choice).toBe('custom');
    expect(parsed.query.window).toEqual({
      from: new Date('2026-01-01T00:00:00Z'),
      to: new Date('2026-02-01T00:00:00Z'),
    });
    const instant = parseHomeQuery({ to: '2026-01-31T06:00:00Z' }, now);
    expect(instant.ok && instant.query.window.to).toEqual(new Date('2026-01-31T06:00:00Z'));
    expect(instant.ok && instant.query.choice).toBe('custom');
  });

  it('names the parameter it cannot read', () => {
    expect(parseHomeQuery({ exitCategory: 'nope' }, now)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^exitCategory/),
    });
    expect(parseHomeQuery({ from: '2026-02-01', to: '2026-01-01' }, now)).toMatchObject({
      ok: false,
    });
  });
});

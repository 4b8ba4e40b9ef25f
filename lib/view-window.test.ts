import { describe, expect, it } from 'vitest';
import {
  chooseTimeZone,
  resolveViewWindow,
  viewHref,
  viewParams,
  viewQuery,
  windowDays,
  windowProblem,
} from './view-window';

const now = new Date('2026-12-01T10:00:00Z');
const DAY = 86_400_000;

describe('the one window of every page', () => {
  it('opens on the last 30 days everywhere', () => {
    expect(resolveViewWindow({}, 'UTC', now)).toEqual({
      choice: '30d',
      from: new Date(now.getTime() - 30 * DAY),
      to: now,
      timeZone: 'UTC',
    });
    expect(resolveViewWindow({ window: '7d' }, 'UTC', now).from).toEqual(
      new Date(now.getTime() - 7 * DAY),
    );
  });

  it('reads days in the chosen zone, `to` being the last day included', () => {
    const utc = resolveViewWindow({ from: '2026-11-01', to: '2026-11-30' }, 'UTC', now);
    expect(utc).toMatchObject({
      choice: 'custom',
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-12-01T00:00:00Z'),
    });
    const berlin = resolveViewWindow(
      { window: 'custom', from: '2026-11-01', to: '2026-11-30' },
      'Europe/Berlin',
      now,
    );
    expect(berlin.from).toEqual(new Date('2026-10-31T23:00:00Z'));
    expect(berlin.to).toEqual(new Date('2026-11-30T23:00:00Z'));
    expect(windowDays(berlin)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(windowDays(utc)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
  });

  it('takes instants as they are, and a lone `to` or `from`', () => {
    const w = resolveViewWindow({ to: '2026-11-20T06:00:00Z' }, 'Europe/Berlin', now);
    expect(w.to).toEqual(new Date('2026-11-20T06:00:00Z'));
    expect(w.from).toEqual(new Date(Date.parse('2026-11-20T06:00:00Z') - 30 * DAY));
    expect(resolveViewWindow({ from: '2026-11-20' }, 'UTC', now).to).toEqual(now);
  });

  it('a preset wins over stray days; an empty window is named', () => {
    expect(resolveViewWindow({ window: '24h', from: '2020-01-01' }, 'UTC', now).choice).toBe('24h');
    const backwards = resolveViewWindow({ from: '2026-11-02', to: '2026-11-01' }, 'UTC', now);
    expect(windowProblem(backwards)).toBe('from: must be before to');
    expect(windowProblem(resolveViewWindow({}, 'UTC', now))).toBeNull();
  });

  it('checks window names and time zones', () => {
    expect(viewParams.safeParse({ window: '1y' }).success).toBe(false);
    expect(viewParams.safeParse({ tz: 'Mars/Olympus_Mons' }).success).toBe(false);
    expect(viewParams.safeParse({ window: '90d', tz: 'Asia/Kolkata' }).success).toBe(true);
  });

  it('the URL comes first, then the remembered zone, then UTC', () => {
    expect(chooseTimeZone('Asia/Tokyo', 'Europe/Berlin')).toBe('Asia/Tokyo');
    expect(chooseTimeZone(undefined, 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(chooseTimeZone(undefined, 'not/a zone')).toBe('UTC');
    expect(chooseTimeZone(undefined, undefined)).toBe('UTC');
  });

  it('links carry the project, window and zone and nothing else', () => {
    const query = { project: 'p', window: '7d', tz: 'UTC', agent: 'coder', flag: 'repeat' };
    expect(viewQuery(query)).toEqual({ project: 'p', window: '7d', tz: 'UTC' });
    expect(viewQuery(new URLSearchParams('from=2026-11-01&to=2026-11-30&sort=costUsd'))).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(viewHref('/reports/weekly', query)).toBe('/reports/weekly?project=p&window=7d&tz=UTC');
    expect(viewHref('/', {}, { step: '3' })).toBe('/?step=3');
    expect(viewHref('/prices', {})).toBe('/prices');
  });
});

// Window rules: which windows a rule compares at a given moment, and whether the comparison
// fires. Pure; the schedule (server/window-alerts.ts) reads the totals and writes the event.
import type { WindowCondition } from './rule';
import { dollars } from './judge-run';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

export interface WindowPair {
  current: { from: Date; to: Date };
  previous: { from: Date; to: Date };
  /** One event per rule and key: a rise fires once per window length, not at every tick. */
  dedupeKey: string;
}

/**
 * Share rules compare the last whole `window` of hours with the one before it; the cost rule
 * compares the last whole ISO week with the week before.
 */
export function windowsAt(when: WindowCondition, now: Date): WindowPair {
  if (when.kind === 'exit_share_rise') {
    const length = when.window === '1d' ? DAY : 7 * DAY;
    const to = Math.floor(now.getTime() / HOUR) * HOUR;
    return {
      current: { from: new Date(to - length), to: new Date(to) },
      previous: { from: new Date(to - 2 * length), to: new Date(to - length) },
      dedupeKey: `window:${when.window}:${new Date(Math.floor(to / length) * length).toISOString()}`,
    };
  }
  const thisMonday = mondayOf(now);
  const current = new Date(thisMonday - 7 * DAY);
  return {
    current: { from: current, to: new Date(thisMonday) },
    previous: { from: new Date(thisMonday - 14 * DAY), to: current },
    dedupeKey: `window:week:${current.toISOString().slice(0, 10)}`,
  };
}

function mondayOf(date: Date): number {
  const day = Math.floor(date.getTime() / DAY) * DAY;
  // 1970-01-01 was a Thursday: days since a Monday.
  const sinceMonday = (Math.floor(day / DAY) + 3) % 7;
  return day - sinceMonday * DAY;
}

export function judgeShareRise(
  when: Extract<WindowCondition, { kind: 'exit_share_rise' }>,
  current: { runs: number; inCategory: number },
  previous: { runs: number; inCategory: number },
  ruleName: string,
): string | null {
  if (current.runs === 0) return null;
  const now = (100 * current.inCategory) / current.runs;
  const before = previous.runs === 0 ? 0 : (100 * previous.inCategory) / previous.runs;
  if (now - before < when.points) return null;
  return `${ruleName}: ${when.category} was ${pct(now)} of ${current.runs} runs over the last ${
    when.window
  }, up ${pct(now - before).replace('%', '')} points from ${pct(before)}`;
}

export function judgeCostRise(
  when: Extract<WindowCondition, { kind: 'cost_per_verified_unit_rise' }>,
  current: { costUsd: number; verifiedUnits: number },
  previous: { costUsd: number; verifiedUnits: number },
  ruleName: string,
): string | null {
  // Without verified units in either week there is no cost per unit to compare.
  if (current.verifiedUnits <= 0 || previous.verifiedUnits <= 0) return null;
  const now = current.costUsd / current.verifiedUnits;
  const before = previous.costUsd / previous.verifiedUnits;
  if (before <= 0) return null;
  const rise = (100 * (now - before)) / before;
  if (rise < when.percent) return null;
  return `${ruleName}: cost per verified unit was ${dollars(now)} last week, up ${pct(rise)} from ${dollars(before)}`;
}

function pct(value: number): string {
  return `${Math.round(value * 10) / 10}%`;
}

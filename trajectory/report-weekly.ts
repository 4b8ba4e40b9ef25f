// The weekly cost-per-verified-unit report as plain rows: one per ISO week and group, each with
// the change from the group's previous week (the calendar week before, not the last week that
// happened to have runs).
import { costPerVerifiedUnit, change } from './report-metrics';
import type { Change } from './report-metrics';
import { WEEK_MS, isoWeekOfDate, utcDate } from './report-weeks';

export const WEEKLY_GROUP_BY = ['agent', 'variant', 'model'] as const;
export type WeeklyGroupBy = (typeof WEEKLY_GROUP_BY)[number];

/** What the rollup holds for one week and group. */
export interface WeeklyTotals {
  /** Monday of the ISO week, `YYYY-MM-DD`. */
  weekStart: string;
  /** The agent, variant or model; null for runs that name none. */
  group: string | null;
  runs: number;
  verifiedRuns: number;
  verifiedUnits: number;
  costUsd: number;
  wastedUsd: number;
  /** Runs that used a model without a price: their spend is incomplete. */
  unpricedRuns: number;
}

export interface WeeklyRow extends WeeklyTotals {
  /** `2026-W48` */
  week: string;
  costPerVerifiedUnit: number | null;
  /** The group's cost per verified unit the calendar week before, when it had one. */
  previousCostPerVerifiedUnit: number | null;
  change: Change | null;
}

/** Rows in week order (then group), each with its change from the week before. */
export function weeklyRows(totals: readonly WeeklyTotals[]): WeeklyRow[] {
  const ratio = new Map<string, number | null>();
  const key = (weekStart: string, group: string | null) => `${weekStart}\u0000${group ?? ''}`;
  for (const t of totals)
    ratio.set(key(t.weekStart, t.group), costPerVerifiedUnit(t.costUsd, t.verifiedUnits));
  return [...totals]
    .sort((a, b) => compare(a.weekStart, b.weekStart) || compareGroups(a.group, b.group))
    .map((t) => {
      const current = ratio.get(key(t.weekStart, t.group)) ?? null;
      const previousWeek = utcDate(Date.parse(`${t.weekStart}T00:00:00Z`) - WEEK_MS);
      const previous = ratio.get(key(previousWeek, t.group)) ?? null;
      return {
        ...t,
        week: isoWeekOfDate(t.weekStart).label,
        costPerVerifiedUnit: current,
        previousCostPerVerifiedUnit: previous,
        change: change(current, previous),
      };
    });
}

/** Groups in a stable order: named ones alphabetically, the unnamed last. */
export function compareGroups(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compare(a, b);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface WeeklySeries {
  /** One series per group, in compareGroups order. */
  groups: (string | null)[];
  /** One point per week of the window (weeks without runs included), each group's ratio. */
  points: { week: string; weekStart: string; values: (number | null)[] }[];
}

/** The chart's shape: every week of the window on the axis, a gap where a group has no ratio. */
export function weeklySeries(
  rows: readonly WeeklyRow[],
  weekStarts: readonly string[],
): WeeklySeries {
  const groups = [...new Set(rows.map((r) => r.group))].sort(compareGroups);
  const index = new Map(groups.map((g, k) => [g, k]));
  const byWeek = new Map<string, (number | null)[]>(
    weekStarts.map((w) => [w, groups.map(() => null)]),
  );
  for (const row of rows) {
    const values = byWeek.get(row.weekStart);
    if (values) values[index.get(row.group) as number] = row.costPerVerifiedUnit;
  }
  return {
    groups,
    points: weekStarts.map((weekStart) => ({
      week: isoWeekOfDate(weekStart).label,
      weekStart,
      values: byWeek.get(weekStart) ?? [],
    })),
  };
}

/** A group's name as shown; runs that name none are grouped as "(no agent)" and so on. */
export function groupLabel(group: string | null, by: WeeklyGroupBy): string {
  return group ?? `(no ${by})`;
}

// ISO 8601 weeks in UTC: weeks start on Monday, and week 1 is the week with the year's first
// Thursday, so the last days of December can belong to week 1 of the next year and the first
// days of January to week 52 or 53 of the last. The rollup's week_start is the same Monday
// (Postgres `date_trunc('week', …)` at UTC).

export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

export interface IsoWeek {
  /** The ISO week-numbering year (not always the calendar year of the day). */
  year: number;
  week: number;
  /** `2026-W48` */
  label: string;
  /** Monday 00:00 UTC, epoch milliseconds. */
  startMs: number;
}

/** Monday 00:00 UTC of the week that holds the instant. */
export function isoWeekStartMs(ms: number): number {
  const day = new Date(ms);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()) - sinceMonday * DAY_MS;
}

/** The latest Thursday 12:00 UTC at or before `ms`: mid-week, as far as it gets from its edges. */
export function lastThursdayNoonMs(ms: number): number {
  const thisWeeks = isoWeekStartMs(ms) + 3 * DAY_MS + DAY_MS / 2;
  return thisWeeks <= ms ? thisWeeks : thisWeeks - 7 * DAY_MS;
}

export function isoWeek(ms: number): IsoWeek {
  const startMs = isoWeekStartMs(ms);
  // The week belongs to the year its Thursday falls in.
  const thursday = new Date(startMs + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / WEEK_MS) + 1;
  return { year, week, label: `${year}-W${String(week).padStart(2, '0')}`, startMs };
}

/** The week of a `YYYY-MM-DD` date (a rollup's week_start). */
export function isoWeekOfDate(date: string): IsoWeek {
  return isoWeek(Date.parse(`${date}T00:00:00Z`));
}

/** 53 when the year has a week 53 (it starts on a Thursday, or a leap year on a Wednesday). */
export function isoWeeksInYear(year: number): 52 | 53 {
  // 28 December is always in the year's last week.
  return isoWeek(Date.UTC(year, 11, 28)).week === 53 ? 53 : 52;
}

/** `YYYY-MM-DD` of an instant, UTC. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Monday of every week that overlaps [fromMs, toMs), in order. */
export function weekStartsBetween(fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  for (let start = isoWeekStartMs(fromMs); start < toMs; start += WEEK_MS) out.push(start);
  return out;
}

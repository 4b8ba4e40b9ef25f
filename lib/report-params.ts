// The reports' URL parameters, parsed once with zod: the API route and the pages share them, so
// a link and an API call mean the same window and grouping. A bad one names itself.
import './zod-in-browser';
import { z } from 'zod';
import { keyName, oneOf, parseSearch, safeText, windowParams } from './filters';
import type { TimeWindow } from './filters';
import { viewParams } from './view-window';
import { WEEKLY_GROUP_BY } from '../trajectory/report-weekly';
import { PATTERN_KINDS } from '../trajectory/pattern-kinds';
import { WEEK_MS, isoWeekStartMs, utcDate, weekStartsBetween } from '../trajectory/report-weeks';

/** The weekly report covers this many weeks, the current one included, unless told otherwise. */
export const DEFAULT_REPORT_WEEKS = 12;
/** A window longer than about five years is refused: the report has a row per week and group. */
export const MAX_REPORT_WEEKS = 262;

const text = safeText().trim().min(1).max(500).optional();
/** An agent or variant, as stored (trajectory/key-text.ts). */
const name = keyName().optional();
const window = windowParams.pick({ from: true, to: true });
/** The window as the dashboard pages read it: `from`, `to`, a preset `window`, the zone `tz`. */
const pageWindow = window.extend(viewParams.shape);
/** "All agents" on the compare page, where no agent means the default one. */
export const ALL_AGENTS = '*';

function orderedWindow(value: { from?: Date; to?: Date }, ctx: z.RefinementCtx): void {
  if (value.from && value.to && value.from.getTime() >= value.to.getTime()) {
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'must be before to' });
  } else if (
    value.from &&
    value.to &&
    value.to.getTime() - value.from.getTime() > MAX_REPORT_WEEKS * WEEK_MS
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['from'],
      message: `the window is longer than ${MAX_REPORT_WEEKS} weeks`,
    });
  }
}

const weeklyBase = window.extend({
  groupBy: oneOf(WEEKLY_GROUP_BY).default('agent'),
  format: oneOf(['json', 'csv']).default('json'),
});
/** `GET /api/v1/reports/weekly`: the project is the key's. */
export const weeklyReportParams = weeklyBase.superRefine(orderedWindow);
export type WeeklyReportParams = z.infer<typeof weeklyReportParams>;
/** The dashboard page (and its CSV export), which name the project, `default` unless told. */
export const weeklyPageParams = weeklyBase
  .extend(viewParams.shape)
  .extend({ project: text, scale: oneOf(['linear', 'log']).default('linear') })
  .superRefine(orderedWindow);

export const compareParams = pageWindow
  .extend({ a: name, b: name, agent: name, project: text })
  .superRefine(orderedWindow);
export type CompareParams = z.infer<typeof compareParams>;

export const capsParams = pageWindow
  .extend({
    agent: name,
    variant: name,
    /** Dollar cap applied to the whole simulation. */
    maxUsd: z.coerce.number().positive().max(1_000_000).optional(),
    /** The step cap the page opens on. */
    cap: z.coerce.number().int().min(1).max(1_000_000).optional(),
    project: text,
  })
  .superRefine(orderedWindow);
export type CapsParams = z.infer<typeof capsParams>;

export const pricesParams = pageWindow.extend({ project: text }).superRefine(orderedWindow);

/** The loop patterns page: the window, an agent, a kind, and one pattern to list the runs of. */
export const patternsParams = pageWindow
  .extend({
    project: text,
    agent: name,
    kind: oneOf(PATTERN_KINDS).optional(),
    signature: text,
  })
  .superRefine(orderedWindow);

export const sessionsParams = pageWindow
  .extend({ project: text, agent: name, cursor: text })
  .superRefine(orderedWindow);

export interface WeekWindow extends TimeWindow {
  /** Monday of the first and last week, `YYYY-MM-DD`. */
  firstWeek: string;
  lastWeek: string;
  /** Every Monday in between, in order. */
  weeks: string[];
}

/** Whole ISO weeks overlapping [from, to): by default the last 12, this one included. */
export function weekWindow(params: { from?: Date; to?: Date }, now = new Date()): WeekWindow {
  const to = params.to ?? now;
  const lastStart = isoWeekStartMs(to.getTime() - 1);
  const from = params.from ?? new Date(lastStart - (DEFAULT_REPORT_WEEKS - 1) * WEEK_MS);
  const weeks = weekStartsBetween(from.getTime(), to.getTime()).map(utcDate);
  // An empty window (from at or after to) keeps last < first, so it selects no week.
  const first = weeks[0] ?? utcDate(isoWeekStartMs(from.getTime()));
  const last = weeks[weeks.length - 1] ?? utcDate(isoWeekStartMs(from.getTime()) - WEEK_MS);
  return { from, to, firstWeek: first, lastWeek: last, weeks };
}

/** The ISO weeks (their Monday dates) a run window touches, for the weekly rollup. */
export function weeksOf(window: TimeWindow): { firstWeek: string; lastWeek: string } {
  return {
    firstWeek: utcDate(isoWeekStartMs(window.from.getTime())),
    lastWeek: utcDate(isoWeekStartMs(window.to.getTime() - 1)),
  };
}

/** Safe-parse for pages: the data, or every problem, each naming its parameter (a 400's message
 * joins them). */
export function parsePageParams<T extends z.ZodType>(
  schema: T,
  input: Record<string, string>,
): ReturnType<typeof parseSearch<T>> {
  return parseSearch(schema, input);
}

const DAY_MS = 86_400_000;

/** A report page's query as the server reads it: `to` as a whole day ends at the next midnight
 * (for the order check; the page's window is lib/view-window.ts's, in the reader's zone). */
export function parseReportQuery<T extends z.ZodType>(schema: T, query: Record<string, string>) {
  const raw = { ...query };
  if (raw.to && /^\d{4}-\d{2}-\d{2}$/.test(raw.to) && !Number.isNaN(Date.parse(raw.to))) {
    raw.to = new Date(Date.parse(raw.to) + DAY_MS).toISOString();
  }
  return parsePageParams(schema, raw);
}

/** Each report page's schema by its path, for the not-found page that names what is wrong. */
export const REPORT_SCHEMAS: Record<string, z.ZodType> = {
  '/reports/weekly': weeklyPageParams,
  '/reports/compare': compareParams,
  '/reports/caps': capsParams,
  '/prices': pricesParams,
  '/patterns': patternsParams,
  '/sessions': sessionsParams,
};

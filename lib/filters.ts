// Query parameters of the read API and the dashboard, parsed once with zod. The same schemas
// serve route handlers, pages and the client components that write them into the URL.
import './zod-in-browser';
import { z } from 'zod';
import { EXIT_CATEGORIES } from '../trajectory/exit-categories';

export const RUN_FLAGS = [
  'repeat',
  'revisit',
  'stall',
  'toolCircuit',
  'fabricatedSuccess',
  'unexplainedStop',
  'fragment',
] as const;
export type RunFlag = (typeof RUN_FLAGS)[number];

export const RUN_SORTS = ['startedAt', 'costUsd', 'wastedUsd', 'stepCount', 'durationMs'] as const;
export type RunSort = (typeof RUN_SORTS)[number];

export const DEFAULT_WINDOW_MS = 30 * 24 * 3600 * 1000;

/** An enum whose error lists the values it takes, plainly. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}
export const MAX_PAGE_SIZE = 500;

const isoDate = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'not a date: use YYYY-MM-DD or a date-time with an offset (2026-11-30T12:00:00Z)',
  })
  .transform((v) => new Date(v));
const optionalText = z.string().trim().min(1).max(500).optional();

export const windowParams = z.object({
  from: isoDate.optional(),
  to: isoDate.optional(),
  agent: optionalText,
  variant: optionalText,
});

export const runListParams = windowParams.extend({
  exitCategory: oneOf(EXIT_CATEGORIES).optional(),
  flag: oneOf(RUN_FLAGS).optional(),
  sort: oneOf(RUN_SORTS).default('startedAt'),
  order: oneOf(['asc', 'desc']).default('desc'),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  cursor: z.string().max(500).optional(),
});

export type WindowParams = z.infer<typeof windowParams>;
export type RunListParams = z.infer<typeof runListParams>;

export interface TimeWindow {
  from: Date;
  to: Date;
}

/** Every list and report has a window: the last 30 days unless the caller says otherwise. */
export function resolveWindow(params: { from?: Date; to?: Date }, now = new Date()): TimeWindow {
  const to = params.to ?? now;
  const from = params.from ?? new Date(to.getTime() - DEFAULT_WINDOW_MS);
  return { from, to };
}

/** URLSearchParams to a plain object zod can read (last value wins; empty means absent). */
export function searchParamsObject(
  search: URLSearchParams | Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  const entries =
    search instanceof URLSearchParams ? [...search.entries()] : Object.entries(search);
  for (const [key, value] of entries) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined && last !== '') out[key] = last;
  }
  return out;
}

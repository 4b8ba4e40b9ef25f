// Query parameters of the read API and the dashboard, parsed once with zod. The same schemas
// serve route handlers, pages and the client components that write them into the URL.
import './zod-in-browser';
import { z } from 'zod';
import { queryProblems } from './query-problems';
import { EXIT_CATEGORIES, VERIFICATION_STATES } from '../trajectory/exit-categories';
import { keyText } from '../trajectory/key-text';

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

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a text parameter cannot be used, or null: Postgres stores no NUL character, and a lone
 * surrogate is not Unicode (UTF-8 cannot carry it).
 */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'contains a NUL character';
  if (LONE_SURROGATE.test(value)) return 'contains a lone surrogate (not valid Unicode)';
  return null;
}

/** A string that is safe to store and to query with. */
export function safeText() {
  return z.string().superRefine((value, ctx) => {
    const problem = textProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

export const projectName = safeText().trim().min(1).max(200);

/** Longest id or name a parameter takes: ingest keeps an attribute's text to 16 KB. */
const MAX_KEY_INPUT = 20_000;

/** A run or session id, as stored: a long one becomes what ingest made of it (key-text.ts). */
export function keyId() {
  return safeText().min(1).max(MAX_KEY_INPUT).transform(keyText);
}

/** An agent, variant or model name to filter by: trimmed, and as stored (key-text.ts). */
export function keyName() {
  return safeText().trim().min(1).max(MAX_KEY_INPUT).transform(keyText);
}

const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(10_000, 0, 1);

const isoDate = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'not a date: use YYYY-MM-DD or a date-time with an offset (2026-11-30T12:00:00Z)',
  })
  .transform((v) => new Date(v))
  .refine((d) => d.getTime() >= EARLIEST && d.getTime() < LATEST, {
    message: 'must be a date from 1970-01-01 to 9999-12-31',
  });
export const windowParams = z.object({
  from: isoDate.optional(),
  to: isoDate.optional(),
  agent: keyName().optional(),
  variant: keyName().optional(),
});

/** Most words a search (`q`) takes; more would only make every word's scan dearer. */
export const MAX_SEARCH_WORDS = 8;

export const runListParams = windowParams.extend({
  exitCategory: oneOf(EXIT_CATEGORIES).optional(),
  flag: oneOf(RUN_FLAGS).optional(),
  /** Words that must all appear in the goal, agent, variant, actions, exit or error text. */
  q: safeText().trim().max(200).optional(),
  verification: oneOf(VERIFICATION_STATES).optional(),
  model: keyName().optional(),
  /** Runs that spent more than this many dollars. */
  costAbove: z.coerce.number().finite().min(0).max(1e9).optional(),
  sort: oneOf(RUN_SORTS).default('startedAt'),
  order: oneOf(['asc', 'desc']).default('desc'),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  cursor: safeText().max(500).optional(),
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

export type ParsedSearch<T> =
  { ok: true; data: T } | { ok: false; message: string; problems: string[] };

/**
 * The one parse of a URL's query, for routes and pages alike: every value must be text that can
 * be stored (a NUL or a lone surrogate names its parameter), then the schema. Every problem names
 * its parameter; `message` joins them for a 400.
 */
export function parseSearch<T extends z.ZodType>(
  schema: T,
  search: URLSearchParams | Record<string, string | string[] | undefined>,
): ParsedSearch<z.infer<T>> {
  const raw = searchParamsObject(search);
  const problems: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const problem = textProblem(key) ?? textProblem(value);
    if (problem) problems.push(`${textProblem(key) ? 'query' : key}: ${problem}`);
  }
  if (problems.length === 0) {
    const result = schema.safeParse(raw);
    if (result.success) return { ok: true, data: result.data };
    problems.push(...queryProblems(result.error));
  }
  return { ok: false, message: problems.join('; '), problems };
}

/** Why a request's path cannot be routed (its percent-encoding is not UTF-8), or null. */
/**
 * Whether a path is one of the dashboard's own (pages, their JSON routes), which the proxy's door
 * covers: not the ingest, the keyed API, health, the admin route or static files. The proxy's
 * matcher (proxy.ts) says the same in Next's own syntax.
 */
export function isDashboardPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return !/^\/(?:v1\/|api\/v1\/|api\/health|api\/admin\/|_next\/static|_next\/image|favicon\.ico|icon\.svg)/.test(
    path,
  );
}

export function pathProblem(url: string): string | null {
  const path = url.split('?', 1)[0] ?? '';
  try {
    decodeURIComponent(path);
    return null;
  } catch {
    return 'the URL path is not valid percent-encoded UTF-8';
  }
}

/** A run id from a URL path: any text a span may carry, but not NUL or a lone surrogate. */
export function runIdProblem(runId: string): string | null {
  const problem = textProblem(runId);
  return problem ? `runId: ${problem}` : null;
}

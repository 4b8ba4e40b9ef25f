// What a number read from a span may be. Every number that reaches a column or a sum is checked
// here once, where it enters: a value its column or its arithmetic cannot hold is stored as
// unknown, and the span keeps a record of it (`SpanFacts.problems`) that the run page shows.
import type { ValueProblem } from '../trajectory/span-facts';
import type { AttributeValue, Attributes } from './otlp/types';

export type { ValueProblem };

export interface NumberBound {
  min: number;
  max: number;
  integer: boolean;
  /** How the problem names what the value should have been. */
  what: string;
}

const bound = (min: number, max: number, integer: boolean, what: string): NumberBound => ({
  min,
  max,
  integer,
  what,
});

// Each per-span limit leaves room for sums over any run to stay finite and exact enough: a
// billion spans at the token limit still fit a bigint, at the dollar limit a double.
export const BOUNDS = {
  /** Steps are integer columns; their differences (cycle lengths) must fit one too. */
  stepNumber: bound(0, 2 ** 31 - 1, true, 'a step number from 0 to 2147483647'),
  tokens: bound(0, 1e12, true, 'a token count from 0 to 10^12'),
  usd: bound(0, 1e9, false, 'dollars from 0 to 10^9'),
  units: bound(0, 1e9, false, 'a count of units from 0 to 10^9'),
  limit: bound(0, 1e15, false, 'a limit from 0 to 10^15'),
  progress: bound(-1e15, 1e15, false, 'a number from -10^15 to 10^15'),
  httpStatus: bound(0, 999, true, 'an HTTP status code'),
} as const;

/** A span keeps at most this many problems; the count of the rest is not worth a column. */
export const MAX_PROBLEMS = 20;

export function describeValue(value: AttributeValue | undefined): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export function recordProblem(problems: ValueProblem[], problem: ValueProblem): void {
  if (problems.length < MAX_PROBLEMS) problems.push(problem);
}

/**
 * The first of `keys` the span carries, as a number within `limits`; null when absent. A value
 * that is present but not such a number is recorded in `problems` and read as unknown (null).
 */
export function readBoundedNumber(
  attrs: Attributes,
  keys: readonly string[],
  limits: NumberBound,
  problems: ValueProblem[],
): number | null {
  for (const key of keys) {
    if (!Object.hasOwn(attrs, key)) continue;
    const raw = attrs[key];
    if (raw === null || raw === undefined || raw === '') continue;
    const issue = checkNumber(raw, limits);
    if (typeof issue === 'number') return issue;
    recordProblem(problems, { key, value: describeValue(raw), problem: issue });
    return null;
  }
  return null;
}

/** The value as a number within the bound, or what is wrong with it. */
export function checkNumber(raw: AttributeValue, limits: NumberBound): number | string {
  const n =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && raw.trim() !== ''
        ? Number(raw)
        : NaN;
  const unknown = `stored as unknown; expected ${limits.what}`;
  if (typeof raw !== 'number' && typeof raw !== 'string') return `not a number: ${unknown}`;
  if (Number.isNaN(n)) return `not a number: ${unknown}`;
  if (!Number.isFinite(n)) return `not finite: ${unknown}`;
  if (limits.integer && !Number.isInteger(n)) return `not a whole number: ${unknown}`;
  if (n < limits.min) return `below ${limits.min}: ${unknown}`;
  if (n > limits.max) return `too large: ${unknown}`;
  return n === 0 ? 0 : n;
}

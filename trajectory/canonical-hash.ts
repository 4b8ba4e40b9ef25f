import { createHash } from 'node:crypto';

export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

// Past this depth a subtree is hashed as its JSON.stringify text (keys no longer sorted), and one
// too deep even for that as a fixed placeholder: hostile nesting cannot exhaust the stack.
export const MAX_DEPTH = 64;

const DEEP_PLACEHOLDER = '[nested too deeply]';
const CIRCULAR_PLACEHOLDER = '[circular]';

export function normalizeString(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

export function normalizeNumber(n: number): number | null {
  if (!Number.isFinite(n)) return null;
  // toFixed rounds on the exact binary value and answers in exponent form from 1e21 up.
  const rounded = Math.abs(n) < 1e21 ? Number(n.toFixed(6)) : n;
  return rounded === 0 ? 0 : rounded;
}

function tooDeepText(value: unknown): string {
  try {
    return normalizeString(JSON.stringify(value) ?? 'null');
  } catch {
    // Cycles and nesting deep enough to overflow JSON.stringify itself.
    return DEEP_PLACEHOLDER;
  }
}

function isPlainData(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function normalizeAt(value: unknown, depth: number, path: Set<object>): JsonValue | undefined {
  switch (typeof value) {
    case 'string':
      return normalizeString(value);
    case 'number':
      return normalizeNumber(value);
    case 'boolean':
      return value;
    case 'bigint':
      return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
    case 'object':
      break;
    default:
      return undefined; // undefined, functions and symbols, as JSON.stringify drops them
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) return tooDeepText(value);
  if (path.has(value)) return CIRCULAR_PLACEHOLDER;
  const toJSON: unknown = (value as { toJSON?: unknown }).toJSON;
  if (!Array.isArray(value) && !isPlainData(value) && typeof toJSON === 'function') {
    return normalizeAt(toJSON.call(value), depth, path);
  }
  path.add(value);
  try {
    if (Array.isArray(value)) {
      return Array.from(value, (item) => normalizeAt(item, depth + 1, path) ?? null);
    }
    // A null-prototype record keeps `__proto__` and `constructor` as plain data keys.
    const out = Object.create(null) as { [key: string]: JsonValue };
    for (const key of Object.keys(value)) {
      const item = normalizeAt((value as Record<string, unknown>)[key], depth + 1, path);
      if (item !== undefined) out[key] = item;
    }
    return out;
  } finally {
    path.delete(value);
  }
}

// Object keys are left as they are: they name fields, and folding them could merge two fields.
export function normalizeValue(value: unknown): JsonValue {
  return normalizeAt(value, 0, new Set()) ?? null;
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

export function normalizeArgs(args: unknown): JsonValue {
  if (typeof args !== 'string') return normalizeValue(args);
  const parsed = parseJson(args);
  return parsed.ok ? normalizeValue(parsed.value) : normalizeString(args);
}

function jcsNumber(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError(`JCS cannot represent ${n}`);
  // ECMAScript Number#toString is the RFC 8785 number form; JSON.stringify also maps -0 to 0.
  return JSON.stringify(n);
}

// RFC 8785: UTF-16 code unit order is JavaScript's default string comparison.
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function jcs(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return jcsNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw new TypeError(`JCS cannot represent a ${typeof value}`);
  }
  if (Array.isArray(value)) {
    return `[${Array.from(value, (item: unknown) => (item === undefined ? 'null' : jcs(item))).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort(byCodeUnits)
    .map((key) => `${JSON.stringify(key)}:${jcs(record[key])}`);
  return `{${members.join(',')}}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * sha256 of the name and the normalised arguments. `ignoreArgs` names fields (request ids,
 * timestamps, nonces) dropped at any depth first, so calls that differ only in them hash alike.
 */
export function canonicalActionHash(
  name: string,
  args: unknown,
  ignoreArgs: readonly string[] = [],
): string {
  const normalized = normalizeArgs(args);
  const kept =
    ignoreArgs.length === 0 ? normalized : withoutFields(normalized, new Set(ignoreArgs));
  // The name is trimmed (exporters pad it now and then) but keeps its case: tools are case-sensitive.
  return sha256Hex(`${name.trim()}\n${jcs(kept)}`);
}

// normalizeValue already bounded the depth, so this walk is bounded too.
function withoutFields(value: JsonValue, ignore: ReadonlySet<string>): JsonValue {
  if (Array.isArray(value)) return value.map((item) => withoutFields(item, ignore));
  if (value === null || typeof value !== 'object') return value;
  const out = Object.create(null) as { [key: string]: JsonValue };
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (!ignore.has(key) && item !== undefined) out[key] = withoutFields(item, ignore);
  }
  return out;
}

export function shortHash(hex: string): string {
  return hex.slice(0, 8);
}

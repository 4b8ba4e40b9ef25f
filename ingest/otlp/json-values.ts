// OTLP/JSON leaf values: ids, int64, enums, timestamps and AnyValue. Every function throws a ShapeError
// whose path is relative to the value; callers prefix it as the error unwinds.
import type { AttributeValue, Attributes } from './types';

export const MAX_JSON_ANY_VALUE_DEPTH = 32;

export class ShapeError extends Error {
  path: string;
  constructor(path: string, detail: string) {
    super(detail);
    this.path = path;
  }
}

export type JsonObject = { [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A field by its lowerCamelCase name or its proto name; null counts as absent (proto3 JSON). */
export function field(obj: JsonObject, camel: string, snake: string): unknown {
  const value = Object.hasOwn(obj, camel)
    ? obj[camel]
    : Object.hasOwn(obj, snake)
      ? obj[snake]
      : undefined;
  return value === null ? undefined : value;
}

/** Runs `read`, prefixing the path of any ShapeError it throws with `segment`. */
export function at<T>(segment: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ShapeError)
      error.path = error.path === '' ? segment : joinPath(segment, error.path);
    throw error;
  }
}

export function joinPath(head: string, tail: string): string {
  if (tail === '') return head;
  return tail.startsWith('[') ? head + tail : `${head}.${tail}`;
}

export function expect(path: string, expected: string, value: unknown): never {
  throw new ShapeError(path, `must be ${expected}, got ${typeName(value)}`);
}

export function stringField(obj: JsonObject, camel: string, snake: string): string {
  const value = field(obj, camel, snake);
  if (value === undefined) return '';
  if (typeof value !== 'string') expect(camel, 'a string', value);
  return value;
}

export function arrayField(obj: JsonObject, camel: string, snake: string): unknown[] {
  const value = field(obj, camel, snake);
  if (value === undefined) return [];
  if (!Array.isArray(value)) expect(camel, 'an array', value);
  return value;
}

const HEX_ID = /^[0-9a-fA-F]*$/;
const BASE64 = /^(?:[A-Za-z0-9+/_-]{4})*(?:[A-Za-z0-9+/_-]{2}(?:==)?|[A-Za-z0-9+/_-]{3}=?)?$/;

/**
 * An id as lowercase hex. OTLP/JSON says hex; some exporters send the proto3 default, base64. Padded base64
 * of an 8- or 16-byte id is never valid hex, so an even-length hex string is always read as hex.
 */
export function idField(obj: JsonObject, camel: string, snake: string): string {
  const value = field(obj, camel, snake);
  if (value === undefined) return '';
  if (typeof value !== 'string') expect(camel, 'a hex string', value);
  if (HEX_ID.test(value) && value.length % 2 === 0) return value.toLowerCase();
  if (BASE64.test(value)) return Buffer.from(value, 'base64').toString('hex');
  throw new ShapeError(camel, `must be hex (or base64), got ${JSON.stringify(value.slice(0, 40))}`);
}

const INT = /^-?\d+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function int64(path: string, value: unknown): number | string {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return value === 0 ? 0 : value;
    if (Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63)
      return BigInt(value).toString();
  } else if (typeof value === 'string' && INT.test(value)) {
    const n = Number(value);
    if (Number.isSafeInteger(n)) return n === 0 ? 0 : n;
    const big = BigInt(value);
    if (big >= INT64_MIN && big <= INT64_MAX) return big.toString();
    throw new ShapeError(path, `${value} is outside the int64 range`);
  }
  return expect(path, 'an int64 (a decimal string or an integer)', value);
}

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export function double(path: string, value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    if (value === 'NaN') return NaN;
    if (value === 'Infinity') return Infinity;
    if (value === '-Infinity') return -Infinity;
    if (NUMBER.test(value)) return Number(value);
  }
  return expect(path, 'a number', value);
}

const NANOS = /^\d{1,20}$/;
const UINT64_MAX = '18446744073709551615';

/** fixed64 Unix nanoseconds to fractional ms, rounded as the protobuf decoder rounds them. */
export function nanosField(obj: JsonObject, camel: string, snake: string): number {
  const value = field(obj, camel, snake);
  if (value === undefined) return 0;
  if (typeof value === 'string' && NANOS.test(value)) {
    if (value.length === 20 && value > UINT64_MAX)
      throw new ShapeError(camel, `${value} is outside the uint64 range`);
    if (value.length <= 6) return Number(value) / 1e6;
    return Number(value.slice(0, -6)) + Number(value.slice(-6)) / 1e6;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    if (value >= 2 ** 64) throw new ShapeError(camel, `${value} is outside the uint64 range`);
    return Math.floor(value / 1e6) + (value % 1e6) / 1e6;
  }
  return expect(camel, 'unsigned nanoseconds (a decimal string or an integer)', value);
}

/** An enum as its integer or its name (`SPAN_KIND_SERVER`). */
export function enumField(
  obj: JsonObject,
  camel: string,
  snake: string,
  names: readonly string[],
): number {
  const value = field(obj, camel, snake);
  if (value === undefined) return 0;
  const n = typeof value === 'string' && INT.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31)
    return n === 0 ? 0 : n;
  if (typeof value === 'string') {
    const index = names.indexOf(value);
    if (index >= 0) return index;
    throw new ShapeError(
      camel,
      `must be an enum integer or name, got ${JSON.stringify(value.slice(0, 40))}`,
    );
  }
  return expect(camel, 'an enum integer or name', value);
}

/** A list of KeyValue into `into` (a null-prototype object: `__proto__` is a plain key). */
export function keyValues(list: unknown[], into: Attributes, depth: number): void {
  for (let i = 0; i < list.length; i++) {
    const kv = list[i];
    if (!isObject(kv)) expect(`[${i}]`, 'a KeyValue object', kv);
    const key = at(`[${i}]`, () => stringField(kv, 'key', 'key'));
    into[key] = at(`[${i}].value`, () => anyValue(field(kv, 'value', 'value'), depth + 1));
  }
}

export function anyValue(value: unknown, depth: number): AttributeValue {
  if (value === undefined) return null;
  if (!isObject(value)) expect('', 'an AnyValue object', value);
  if (depth > MAX_JSON_ANY_VALUE_DEPTH)
    throw new ShapeError('', `nested deeper than ${MAX_JSON_ANY_VALUE_DEPTH} levels`);
  let v = field(value, 'stringValue', 'string_value');
  if (v !== undefined) {
    if (typeof v !== 'string') expect('stringValue', 'a string', v);
    return v;
  }
  v = field(value, 'boolValue', 'bool_value');
  if (v !== undefined) {
    if (typeof v !== 'boolean') expect('boolValue', 'a boolean', v);
    return v;
  }
  v = field(value, 'intValue', 'int_value');
  if (v !== undefined) return int64('intValue', v);
  v = field(value, 'doubleValue', 'double_value');
  if (v !== undefined) return double('doubleValue', v);
  v = field(value, 'arrayValue', 'array_value');
  if (v !== undefined) {
    const values = listValues(v, 'arrayValue');
    return values.map((item, i) =>
      at(`arrayValue.values[${i}]`, () => anyValue(item ?? undefined, depth + 1)),
    );
  }
  v = field(value, 'kvlistValue', 'kvlist_value');
  if (v !== undefined) {
    const list = Object.create(null) as Attributes;
    at('kvlistValue.values', () => keyValues(listValues(v, 'kvlistValue'), list, depth));
    return list;
  }
  v = field(value, 'bytesValue', 'bytes_value');
  if (v !== undefined) {
    if (typeof v !== 'string' || !BASE64.test(v)) expect('bytesValue', 'a base64 string', v);
    return Buffer.from(v, 'base64').toString('base64');
  }
  return null;
}

function listValues(v: unknown, name: string): unknown[] {
  if (!isObject(v)) expect(name, 'an object', v);
  return at(name, () => arrayField(v, 'values', 'values'));
}

// A row selected as one JSON array (`json_build_array(...)::text`) and read back column by column.
// PGlite spends about a microsecond on each value it hands back, so a list of many columns is
// cheaper as one value a row; the readers here check each value as cheaply as they can, since
// a schema library's parse cost about as much as the values saved (BENCHMARKS.md "A listed run as
// one value").
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** Reads one value of the array; throws a message saying what it expected. */
export type Reader<T> = (value: unknown) => T;

class UnreadableValue extends Error {}

function expected(what: string, value: unknown): never {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  throw new UnreadableValue(`expected ${what}, got ${got}`);
}

/** JSON has no non-finite numbers: Postgres writes a float8's NaN and infinities as strings. */
const NON_FINITE: Record<string, number> = {
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
};

const text: Reader<string> = (v) => (typeof v === 'string' ? v : expected('text', v));
const number: Reader<number> = (v) =>
  typeof v === 'number'
    ? v
    : typeof v === 'string' && Object.hasOwn(NON_FINITE, v)
      ? NON_FINITE[v]!
      : expected('a number', v);
const boolean: Reader<boolean> = (v) => (typeof v === 'boolean' ? v : expected('a boolean', v));

function orNull<T>(read: Reader<T>): Reader<T | null> {
  return (v) => (v === null ? null : read(v));
}

export const read = {
  text,
  textOrNull: orNull(text),
  number,
  numberOrNull: orNull(number),
  boolean,
  textArray: ((v) =>
    Array.isArray(v) && v.every((e) => typeof e === 'string')
      ? (v as string[])
      : expected('an array of text', v)) as Reader<string[]>,
  /** A timestamp, as Postgres writes it in JSON (ISO 8601 with its offset). */
  time: text,
  timeOrNull: orNull(text),
  /** One of the values an enum column may hold. */
  oneOf<const T extends string>(values: readonly T[]): Reader<T> {
    const known = new Set<string>(values);
    return (v) =>
      typeof v === 'string' && known.has(v) ? (v as T) : expected(values.join('|'), v);
  },
  /** Those of these values the array holds, in its order: others are what a newer version wrote. */
  someOf<const T extends string>(values: readonly T[]): Reader<T[]> {
    const known = new Set<string>(values);
    return (v) =>
      Array.isArray(v)
        ? (v.filter((e) => typeof e === 'string' && known.has(e)) as T[])
        : expected('an array of text', v);
  },
  /** A JSON object's boolean fields (others dropped), or null. */
  flagsOrNull: ((v) => {
    if (v === null) return null;
    if (typeof v !== 'object' || Array.isArray(v)) return expected('an object', v);
    // fromEntries defines each key, so one named `__proto__` stays a field.
    return Object.fromEntries(Object.entries(v).filter(([, value]) => typeof value === 'boolean'));
  }) as Reader<Record<string, boolean> | null>,
  /** One of these, or null for any other value: for plain text a newer version may widen. */
  oneOfOrNull<const T extends string>(values: readonly T[]): Reader<T | null> {
    const known = new Set<string>(values);
    return (v) => (typeof v === 'string' && known.has(v) ? (v as T) : null);
  },
};

export interface JsonRow<T> {
  /** The selection: the columns as one JSON array, as text. */
  select: SQL<string>;
  /** The same array as json, to aggregate (`json_agg`). */
  array: SQL;
  /** A selected value as the record its columns make. */
  parse(text: string): T;
  /** An array already parsed (an element of an aggregate) as the record its columns make. */
  fromValues(values: unknown): T;
}

/** `what` names the row in errors ("a listed run"). */
export function jsonRow<T extends Record<string, unknown>>(
  what: string,
  fields: { [K in keyof T]: readonly [PgColumn | SQL, Reader<T[K]>] },
): JsonRow<T> {
  const keys = Object.keys(fields) as (keyof T & string)[];
  const readers = keys.map((key) => fields[key][1]);
  const array = sql`json_build_array(${sql.join(
    keys.map((key) => fields[key][0]),
    sql`, `,
  )})`;
  function fromValues(values: unknown): T {
    if (!Array.isArray(values) || values.length !== keys.length) {
      throw new Error(`${what} is not the array of its ${keys.length} columns`);
    }
    const record: Record<string, unknown> = {};
    for (let k = 0; k < keys.length; k++) {
      try {
        record[keys[k]!] = readers[k]!(values[k]);
      } catch (error) {
        if (!(error instanceof UnreadableValue)) throw error;
        throw new Error(`${what}'s ${keys[k]} is not readable: ${error.message}`);
      }
    }
    return record as T;
  }
  return {
    select: sql<string>`${array}::text`,
    array,
    parse: (rowText) => fromValues(JSON.parse(rowText)),
    fromValues,
  };
}

import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { PgTransaction } from 'drizzle-orm/pg-core';
import type { PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Database, Schema } from './client';
import type { ExtractTablesWithRelations } from 'drizzle-orm';

export type Transaction = PgTransaction<
  PgQueryResultHKT,
  Schema,
  ExtractTablesWithRelations<Schema>
>;
/** The database or a transaction on it: every write and read model takes either. */
export type Executor = Database | Transaction;

/**
 * Rows of a raw query, each parsed by `row` (a zod schema): the one place where what the driver
 * hands back becomes typed data. Both drivers answer alike here (postgres.js: an array; PGlite:
 * `.rows`); `column` below has the parsers for what they differ in (bigint and numeric as text,
 * json as text or parsed, timestamps as Date or text).
 */
export async function queryRows<T extends z.ZodType>(
  executor: Executor,
  query: SQL,
  row: T,
): Promise<z.output<T>[]> {
  const result: unknown = await executor.execute(query);
  const raw = (
    Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])
  ) as unknown[];
  const rows: z.output<T>[] = new Array<z.output<T>>(raw.length);
  for (let k = 0; k < raw.length; k++) {
    const parsed = row.safeParse(raw[k]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `row ${k} of a query is not what its reader expects: ${issue?.path.join('.')}: ${issue?.message}`,
      );
    }
    rows[k] = parsed.data;
  }
  return rows;
}

/** Parsers for raw columns, as both drivers return them. */
export const column = {
  text: z.string(),
  textOrNull: z.string().nullable(),
  /** int, bigint (text on some paths), numeric (text) and float8 alike. */
  number: z.union([z.number(), z.string(), z.bigint()]).transform(Number),
  numberOrNull: z
    .union([z.number(), z.string(), z.bigint()])
    .nullable()
    .transform((v) => (v === null ? null : Number(v))),
  boolean: z.boolean(),
  /** A json or jsonb value: both drivers parse it; text that holds an object or array is parsed. */
  json: z
    .unknown()
    .transform((v) => (typeof v === 'string' && /^\s*[[{]/.test(v) ? safeJson(v) : v)),
  /** A timestamp as an ISO 8601 string. */
  isoTime: z.union([z.date(), z.string()]).transform((v) => new Date(v).toISOString()),
  textArray: z.array(z.string()),
};

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A batch of rows as one JSON parameter, unpacked by `jsonb_to_recordset` in SQL. */
export function asJsonParam(rows: readonly unknown[]): string {
  return JSON.stringify(rows);
}

/** A text[] literal: both drivers take it as one string parameter. */
export function asPgArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

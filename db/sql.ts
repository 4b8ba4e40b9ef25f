import type { SQL } from 'drizzle-orm';
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

/** Rows of a raw query, the same shape on both drivers (postgres.js: an array; PGlite: `.rows`). */
export async function queryRows(
  executor: Executor,
  query: SQL,
): Promise<Record<string, unknown>[]> {
  const result: unknown = await executor.execute(query);
  if (Array.isArray(result)) return result as Record<string, unknown>[];
  return ((result as { rows?: Record<string, unknown>[] }).rows ?? []) as Record<string, unknown>[];
}

/** A batch of rows as one JSON parameter, unpacked by `jsonb_to_recordset` in SQL. */
export function asJsonParam(rows: readonly object[]): string {
  return JSON.stringify(rows);
}

/** A text[] literal: both drivers take it as one string parameter. */
export function asPgArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

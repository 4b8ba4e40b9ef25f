// The SQL a read model sends, captured by a drizzle logger on the same connection, and its
// EXPLAIN (ANALYZE, BUFFERS): how many rows its scans read against how many it returns.
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { Sql } from 'postgres';
import type { Database, DatabaseHandle } from '../../db/client';
import * as schema from '../../db/schema';

export interface CapturedQuery {
  sql: string;
  params: unknown[];
}

/** A database over the handle's connection that records every query it sends. */
export function recordingDatabase(handle: DatabaseHandle): {
  db: Database;
  queries: CapturedQuery[];
} {
  const queries: CapturedQuery[] = [];
  const logger = {
    logQuery: (query: string, params: unknown[]) => queries.push({ sql: query, params }),
  };
  const client = (handle.db as unknown as { $client: unknown }).$client;
  const db =
    handle.kind === 'postgres'
      ? drizzlePostgres({ client: client as Sql, schema, logger })
      : drizzlePglite({ client: client as PGlite, schema, logger });
  return { db: db as unknown as Database, queries };
}

export interface PlanReport {
  /** Rows the scan nodes read (kept and filtered out), over all loops. */
  scanned: number;
  returned: number;
  heapFetches: number;
  sharedHit: number;
  sharedRead: number;
  text: string;
}

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Heap Fetches'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

const TABLE_SCANS = new Set(['Seq Scan', 'Index Scan', 'Index Only Scan', 'Bitmap Heap Scan']);

export async function explain(handle: DatabaseHandle, query: CapturedQuery): Promise<PlanReport> {
  const run = async (options: string): Promise<unknown[]> => {
    const text = `explain (${options}) ${query.sql}`;
    const client = (handle.db as unknown as { $client: unknown }).$client;
    if (handle.kind === 'postgres') {
      return [...(await (client as Sql).unsafe(text, query.params as never[]))];
    }
    return (await (client as PGlite).query(text, query.params)).rows as unknown[];
  };
  const json = (await run('analyze, buffers, format json'))[0] as Record<string, unknown>;
  const raw = Object.values(json)[0];
  const root = ((typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[])[0]!.Plan;
  let scanned = 0;
  let heapFetches = 0;
  const visit = (node: PlanNode) => {
    const loops = node['Actual Loops'] ?? 1;
    if (TABLE_SCANS.has(node['Node Type'])) {
      scanned +=
        ((node['Actual Rows'] ?? 0) +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
        loops;
      heapFetches += node['Heap Fetches'] ?? 0;
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(root);
  const lines = (await run('analyze, buffers')).map((r) => Object.values(r as object)[0]);
  return {
    scanned,
    returned: (root['Actual Rows'] ?? 0) * (root['Actual Loops'] ?? 1),
    heapFetches,
    sharedHit: root['Shared Hit Blocks'] ?? 0,
    sharedRead: root['Shared Read Blocks'] ?? 0,
    text: lines.join('\n'),
  };
}

// What "every run derived right" means after a test that raced, killed or failed something over:
// the runs as stored equal the runs one derivation of all their stored spans gives now.
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../db/client';
import type { Database } from '../../db/client';
import { rawRows } from '../../db/test-database';
import { deriveRuns } from '../../derive/derive-runs';
import { loopSettings, readPriceFile } from '../../lib/settings';
import { PriceTable } from '../../trajectory/pricing';
import { expect } from './fixtures';

class Rollback extends Error {}

// What a run's row holds that depends on when it was derived, not on its spans.
const CLOCK_COLUMNS = ['updated_at', 'last_received_at'];

export async function runRows(db: Database): Promise<Record<string, unknown>[]> {
  const rows = await rawRows(db, sql`select * from runs order by project_id, id`);
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).filter(([key]) => !CLOCK_COLUMNS.includes(key))),
  );
}

/** Every run derived again from all its spans, in a transaction that is rolled back. */
export async function freshlyDerived(
  db: Database,
  projectId: string,
  runIds: string[],
): Promise<Record<string, unknown>[]> {
  const context = {
    prices: new PriceTable(readPriceFile('prices.json')),
    settings: loopSettings(),
  };
  let rows: Record<string, unknown>[] = [];
  await db
    .transaction(async (tx) => {
      const outcome = await deriveRuns(tx, projectId, runIds, context);
      expect(outcome.failed).toEqual([]);
      rows = await runRows(tx as unknown as Database);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return rows;
}

/** Nothing left to store or derive: the spool empty and no run marked. */
export async function backlogLeft(db: Database): Promise<number> {
  const [row] = await rawRows(
    db,
    sql`select (select count(*) from dirty_runs) + (select count(*) from ingest_spool) as n`,
  );
  return Number(row?.n ?? -1);
}

/** The spans stored, as `traceId:spanId`: `rows` counts copies, `ids` the distinct ones. */
export async function storedSpans(db: Database): Promise<{ rows: number; ids: Set<string> }> {
  const rows = await rawRows(db, sql`select trace_id || ':' || span_id as id from spans`);
  return { rows: rows.length, ids: new Set(rows.map((r) => String(r.id))) };
}

/** The same, from a database of its own URL (opened and closed for it). */
export async function storedSpansAt(
  databaseUrl: string,
): Promise<{ rows: number; ids: Set<string> }> {
  const handle = await openDatabase({ databaseUrl });
  try {
    return await storedSpans(handle.db);
  } finally {
    await handle.close();
  }
}

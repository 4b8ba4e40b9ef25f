// For tests: every rollup of a project as stored, next to the same rollups recomputed from its
// runs as they are now (rebuilt inside a transaction that is rolled back).
import { sql } from 'drizzle-orm';
import type { Database } from '../client';
import type { Executor } from '../sql';
import { rawRows } from '../test-database';
import { rebuildRollup } from './rollup-delta';
import { RUN_ROLLUP } from './run-rollups';
import { WEEKLY_ROLLUP } from './weekly-rollups';

const SPECS = [WEEKLY_ROLLUP, RUN_ROLLUP];
const TABLES = SPECS.flatMap((spec) => spec.targets.map((t) => t.table));

class Rollback extends Error {}

async function snapshot(db: Executor, projectId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = await rawRows(
      db,
      sql`select * from ${sql.raw(table)} where project_id = ${projectId}::uuid`,
    );
    out[table] = rows
      .map((row) => {
        const { updated_at: _updated, ...rest } = row;
        // numeric sums keep the scale of their terms: 0.050 and 0.05 are one amount.
        const values = Object.entries(rest).map(([k, v]) => [
          k,
          typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)
            ? Number(v)
            : v instanceof Date
              ? v.toISOString()
              : v,
        ]);
        return JSON.stringify(Object.fromEntries(values));
      })
      .sort();
  }
  return out;
}

export async function storedAndRecomputedRollups(
  db: Database,
  projectId: string,
): Promise<{ stored: Record<string, string[]>; recomputed: Record<string, string[]> }> {
  const stored = await snapshot(db, projectId);
  let recomputed: Record<string, string[]> = {};
  await db
    .transaction(async (tx) => {
      for (const spec of SPECS) await rebuildRollup(tx, spec, projectId);
      recomputed = await snapshot(tx, projectId);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return { stored, recomputed };
}

import { notInArray } from 'drizzle-orm';
import type { ModelPrice } from '../../trajectory/pricing';
import { prices } from '../schema';
import type { Executor } from '../sql';

/** The price file is the source: its rows replace the table's. */
export async function syncPrices(db: Executor, rows: readonly ModelPrice[]): Promise<void> {
  const models = rows.map((r) => r.model);
  if (models.length === 0) await db.delete(prices);
  else await db.delete(prices).where(notInArray(prices.model, models));
  for (const row of rows) {
    const values = {
      model: row.model,
      inputPerMTok: row.inputPerMTok,
      outputPerMTok: row.outputPerMTok,
      cacheReadPerMTok: row.cacheReadPerMTok,
      checkedAt: row.checkedAt,
      source: row.source ?? null,
    };
    await db
      .insert(prices)
      .values(values)
      .onConflictDoUpdate({ target: prices.model, set: values });
  }
}

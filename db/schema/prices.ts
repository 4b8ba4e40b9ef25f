import { date, doublePrecision, pgTable, text } from 'drizzle-orm/pg-core';

// Model rates per million tokens, loaded from the price file (configuration, never code).
export const prices = pgTable('prices', {
  model: text('model').primaryKey(),
  inputPerMTok: doublePrecision('input_per_mtok').notNull(),
  outputPerMTok: doublePrecision('output_per_mtok').notNull(),
  cacheReadPerMTok: doublePrecision('cache_read_per_mtok'),
  checkedAt: date('checked_at', { mode: 'string' }).notNull(),
  source: text('source'),
});

import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Days a project's runs are kept, counted from their start, unless the project says otherwise. */
export const DEFAULT_RETENTION_DAYS = 30;

export const projects = pgTable('projects', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Runs that started longer ago than this go, with their steps and spans (db/write/expire-runs.ts). */
  retentionDays: integer('retention_days').notNull().default(DEFAULT_RETENTION_DAYS),
});

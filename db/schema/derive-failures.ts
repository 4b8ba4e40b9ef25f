import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Runs that could not be derived: kept (their spans and last good summary stay), shown with the
// error, retried with backoff (dirty_runs.not_before) and at every start of the server. A row
// goes when the run derives again.
export const deriveFailures = pgTable(
  'derive_failures',
  {
    projectId: uuid('project_id').notNull(),
    runId: text('run_id').notNull(),
    /** What failed, in words: never the query or its parameters. */
    error: text('error').notNull(),
    attempts: integer('attempts').notNull(),
    firstFailedAt: timestamp('first_failed_at', { withTimezone: true }).notNull().defaultNow(),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull().defaultNow(),
    retryAt: timestamp('retry_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.runId] })],
);

import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Runs whose spans changed since they were last derived. Ingest marks them in the transaction
// that stores the spans; the deriver (and any read of such a run) derives and unmarks them.
// A crash between the two leaves the mark, so nothing is ever left underived.
export const dirtyRuns = pgTable(
  'dirty_runs',
  {
    projectId: uuid('project_id').notNull(),
    runId: text('run_id').notNull(),
    markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A run that failed to derive waits until then (backoff) and counts in no backlog meanwhile;
     * null: derive as soon as possible.
     */
    notBefore: timestamp('not_before', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.runId] }),
    index('dirty_runs_marked_idx').on(t.markedAt),
  ],
);

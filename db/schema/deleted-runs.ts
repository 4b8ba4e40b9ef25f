import { bigint, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// Runs deleted on a user's request (DELETE /api/v1/runs/{id}), kept as tombstones for the
// project's retention: spans of such a run stored later (spooled before the delete, or sent
// after it) are dropped and counted here instead of starting the run again.
export const deletedRuns = pgTable(
  'deleted_runs',
  {
    projectId: uuid('project_id').notNull(),
    runId: text('run_id').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
    /** Spans of the run that arrived after the delete and were dropped. */
    spansDropped: bigint('spans_dropped', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.runId] })],
);

// The traces a deleted run was made of: a later span of one of them belongs to the deleted run,
// whatever run id it names.
export const deletedTraces = pgTable(
  'deleted_traces',
  {
    projectId: uuid('project_id').notNull(),
    traceId: text('trace_id').notNull(),
    runId: text('run_id').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.traceId] })],
);

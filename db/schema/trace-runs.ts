import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';

// Which run each trace belongs to: its own id by default, or the `loop.run.id` one of its spans
// carries, which groups several traces into one run.
export const traceRuns = pgTable(
  'trace_runs',
  {
    projectId: uuid('project_id').notNull(),
    traceId: text('trace_id').notNull(),
    runId: text('run_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.traceId] }),
    index('trace_runs_run_idx').on(t.projectId, t.runId),
  ],
);

import { doublePrecision, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { HumanVerdict } from '../../trajectory/verification';

// A person's verdict on a run's outcome (POST /api/v1/runs/{id}/verdict). Kept apart from runs,
// which derivation replaces whole: every derivation reads it back, so it outlives new spans.
export const runVerdicts = pgTable(
  'run_verdicts',
  {
    projectId: uuid('project_id').notNull(),
    runId: text('run_id').notNull(),
    verdict: text('verdict').$type<HumanVerdict>().notNull(),
    units: doublePrecision('units').notNull(),
    note: text('note'),
    givenAt: timestamp('given_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.runId] })],
);

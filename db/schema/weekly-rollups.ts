import {
  bigint,
  date,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

// Runs summed per ISO week (UTC, of started_at) and agent, variant and model: what the weekly
// report reads, so a year of data answers without scanning runs. Ingest keeps it current in the
// transaction that (re)derives or removes runs (db/write/weekly-rollups.ts): it applies each
// run's new contribution minus its old one. Money and units are numeric, so additions and
// subtractions are exact and the result does not depend on the order runs arrived in.
// A run without an agent, variant or model is keyed '' (ingest never stores '' for a name).
export const weeklyRollups = pgTable(
  'weekly_rollups',
  {
    projectId: uuid('project_id').notNull(),
    /** Monday of the ISO week. */
    weekStart: date('week_start', { mode: 'string' }).notNull(),
    agent: text('agent').notNull(),
    variant: text('variant').notNull(),
    model: text('model').notNull(),
    runs: integer('runs').notNull(),
    verifiedRuns: integer('verified_runs').notNull(),
    verifiedUnits: numeric('verified_units').notNull(),
    costUsd: numeric('cost_usd').notNull(),
    wastedUsd: numeric('wasted_usd').notNull(),
    /** Runs with a loop signal (repeat, revisit or stall). */
    loopRuns: integer('loop_runs').notNull().default(0),
    /** Runs that used a model without a price: the group's spend is incomplete. */
    unpricedRuns: integer('unpriced_runs').notNull(),
    stepCount: bigint('step_count', { mode: 'number' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.weekStart, t.agent, t.variant, t.model] })],
);

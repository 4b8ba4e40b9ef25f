import {
  integer,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { exitCategoryEnum } from './runs';

// Runs counted per UTC hour and per UTC day (of started_at): what the dashboard's window
// aggregates (exit-reason groups, the categories chart, the agent and variant facets, the
// headline numbers: spend, wasted spend, loop rate, cost per verified unit) read for
// the whole days and hours of a window, so they cost the same however many runs the window
// holds; the partial hours at its edges come from runs (db/read/window-runs.ts). Three tables,
// one per question, each as small as its question allows: by exit category alone (no filter),
// by agent and variant (the facets), by all three (a filtered view). Kept current like
// weekly_rollups (db/write/run-rollups.ts): each run's new contribution minus its old one, in the
// transaction that replaces it. Cost is numeric, so sums are exact and order-free.
// A run without an agent or variant is keyed '' (ingest never stores '' for a name).
export const ROLLUP_GRAINS = ['hour', 'day'] as const;
export type RollupGrain = (typeof ROLLUP_GRAINS)[number];
export const rollupGrainEnum = pgEnum('rollup_grain', ROLLUP_GRAINS);

const key = {
  projectId: uuid('project_id').notNull(),
  grain: rollupGrainEnum('grain').notNull(),
  /** Start of the UTC hour or day. */
  bucket: timestamp('bucket', { withTimezone: true }).notNull(),
};
const totals = {
  runs: integer('runs').notNull(),
  costUsd: numeric('cost_usd').notNull(),
  /** Spend from each run's first loop signal on (runs.wasted_usd). */
  wastedUsd: numeric('wasted_usd').notNull().default('0'),
  /** Runs with a loop signal (repeat, revisit or stall: runs.first_signal_step is set). */
  loopRuns: integer('loop_runs').notNull().default(0),
  verifiedUnits: numeric('verified_units').notNull().default('0'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const runRollups = pgTable(
  'run_rollups',
  {
    ...key,
    exitCategory: exitCategoryEnum('exit_category').notNull(),
    agent: text('agent').notNull(),
    variant: text('variant').notNull(),
    ...totals,
  },
  (t) => [
    primaryKey({
      columns: [t.projectId, t.grain, t.bucket, t.exitCategory, t.agent, t.variant],
    }),
  ],
);

export const runCategoryRollups = pgTable(
  'run_category_rollups',
  { ...key, exitCategory: exitCategoryEnum('exit_category').notNull(), ...totals },
  (t) => [primaryKey({ columns: [t.projectId, t.grain, t.bucket, t.exitCategory] })],
);

export const runAgentRollups = pgTable(
  'run_agent_rollups',
  { ...key, agent: text('agent').notNull(), variant: text('variant').notNull(), ...totals },
  (t) => [primaryKey({ columns: [t.projectId, t.grain, t.bucket, t.agent, t.variant] })],
);

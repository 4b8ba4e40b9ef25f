import {
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { rollupGrainEnum } from './run-rollups';

// Loop patterns across runs (trajectory/loop-patterns.ts names them). `run_patterns` holds each
// run's patterns with what the pattern page sums (the run's start, its wasted spend), replaced
// whole in the transaction that derives the run; `pattern_rollups` counts them per UTC hour and
// day like run_rollups (db/write/run-patterns.ts keeps it by deltas), so a window's patterns are
// read from a few hundred rollup rows and the runs of its two edge hours, never from steps.
// A run without an agent is keyed '' (ingest never stores '' for a name).
export const runPatterns = pgTable(
  'run_patterns',
  {
    projectId: uuid('project_id').notNull(),
    runId: text('run_id').notNull(),
    signature: text('signature').notNull(),
    kind: text('kind').notNull(),
    agent: text('agent').notNull(),
    label: text('label').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    wastedUsd: doublePrecision('wasted_usd').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.runId, t.signature] }),
    // A pattern's runs, newest first (its example runs, its list) and a window's edge hours: in
    // the order they are listed, so the newest five are read, not every run of the window.
    index('run_patterns_signature_idx').on(t.projectId, t.signature, t.startedAt, t.runId),
    index('run_patterns_started_idx').on(t.projectId, t.startedAt),
  ],
);

/** A pattern's key and what is counted of it, as the rollup and the totals both keep them. */
const patternCounts = () => ({
  signature: text('signature').notNull(),
  kind: text('kind').notNull(),
  agent: text('agent').notNull(),
  runs: integer('runs').notNull(),
  wastedUsd: numeric('wasted_usd').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const patternRollups = pgTable(
  'pattern_rollups',
  {
    projectId: uuid('project_id').notNull(),
    grain: rollupGrainEnum('grain').notNull(),
    bucket: timestamp('bucket', { withTimezone: true }).notNull(),
    ...patternCounts(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.grain, t.bucket, t.signature, t.kind, t.agent] }),
    // One pattern's buckets across a window: what db/read/loop-patterns.ts sums per candidate.
    index('pattern_rollups_signature_idx').on(t.projectId, t.signature, t.grain, t.bucket),
  ],
);

// Each pattern's runs and wasted spend over all the runs kept, by the same deltas as the rollup.
// No window can hold more of a pattern than this, so the patterns read walks it in order of
// wasted spend and stops once no pattern further down could still make the page.
export const patternTotals = pgTable(
  'pattern_totals',
  {
    projectId: uuid('project_id').notNull(),
    ...patternCounts(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.signature, t.kind, t.agent] }),
    index('pattern_totals_wasted_idx').on(t.projectId, t.wastedUsd, t.runs, t.signature, t.agent),
  ],
);

// A pattern's sum over a window of `days` ending at `anchor` (a whole UTC hour): the window
// rows a read of that length ending within a few hours of the anchor ranks from, correcting
// only for the hours between the anchor and its own end (db/read/loop-patterns.ts). Built
// once an hour (db/write/pattern-windows.ts) and kept by the same deltas as the rollup while
// its anchor is listed in pattern_window_anchors.
export const patternWindowAnchors = pgTable(
  'pattern_window_anchors',
  {
    projectId: uuid('project_id').notNull(),
    days: integer('days').notNull(),
    anchor: timestamp('anchor', { withTimezone: true }).notNull(),
    builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.days, t.anchor] })],
);

export const patternWindows = pgTable(
  'pattern_windows',
  {
    projectId: uuid('project_id').notNull(),
    days: integer('days').notNull(),
    anchor: timestamp('anchor', { withTimezone: true }).notNull(),
    ...patternCounts(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.days, t.anchor, t.signature, t.kind, t.agent] }),
    // The window's patterns in the page's order, walked from the top.
    index('pattern_windows_wasted_idx').on(
      t.projectId,
      t.days,
      t.anchor,
      t.wastedUsd,
      t.runs,
      t.signature,
      t.agent,
    ),
  ],
);

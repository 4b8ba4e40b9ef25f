import {
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
  bigint,
} from 'drizzle-orm/pg-core';
import type { Signal, Verdict } from '../../trajectory/step';

// One row per loop step, rebuilt whenever a span of its run arrives. `ordinal` is the position
// in the run (the key); `index` is the step number the spans carry, which need not be unique.
// Partitioned by week of `start_ms`, as spans are (db/write/time-partitions.ts).
export const steps = pgTable(
  'steps',
  {
    projectId: uuid('project_id').notNull(),
    runId: text('run_id').notNull(),
    ordinal: integer('ordinal').notNull(),
    index: integer('index').notNull(),
    traceId: text('trace_id').notNull(),
    spanId: text('span_id').notNull(),
    name: text('name').notNull(),
    startMs: doublePrecision('start_ms').notNull(),
    durationMs: doublePrecision('duration_ms'),
    action: text('action'),
    actionArgs: text('action_args'),
    actionHash: text('action_hash'),
    stateHash: text('state_hash'),
    result: text('result'),
    resultHash: text('result_hash'),
    progress: doublePrecision('progress'),
    verdict: text('verdict').$type<Verdict>(),
    verdictSource: text('verdict_source'),
    verdictFields: jsonb('verdict_fields').$type<Record<string, boolean>>(),
    errorClass: text('error_class'),
    costUsd: doublePrecision('cost_usd').notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull(),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull(),
    contextTokens: bigint('context_tokens', { mode: 'number' }),
    signals: text('signals').array().$type<Signal[]>().notNull(),
    repeatOf: integer('repeat_of'),
    revisitOf: integer('revisit_of'),
    revisitCycle: integer('revisit_cycle'),
    stallSince: integer('stall_since'),
    // A digest of the row as derivation wrote it: deriving the run again rewrites only the steps
    // whose digest changed (db/write/save-steps.ts). Null on rows from before it: rewritten once.
    fingerprint: text('fingerprint'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.runId, t.ordinal, t.startMs] })],
);

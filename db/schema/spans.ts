import {
  doublePrecision,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { SpanFacts } from '../../trajectory/span-facts';

// Every span received, as sent (attributes, events, resource) plus `facts`: what the conventions
// read from it, so deriving a run never re-reads raw attributes. Partitioned by week of
// `start_ms` (migration 0014, db/write/time-partitions.ts), which is why the start is part of the
// key: a span's start is never before its run's, so a week older than every project's retention
// holds only expired runs' spans and goes whole.
export const spans = pgTable(
  'spans',
  {
    projectId: uuid('project_id').notNull(),
    traceId: text('trace_id').notNull(),
    spanId: text('span_id').notNull(),
    parentSpanId: text('parent_span_id'),
    name: text('name').notNull(),
    kind: smallint('kind').notNull(),
    /** Unix epoch milliseconds, fractional (microseconds survive in a double). */
    startMs: doublePrecision('start_ms').notNull(),
    endMs: doublePrecision('end_ms'),
    statusCode: smallint('status_code').notNull(),
    statusMessage: text('status_message').notNull(),
    attributes: jsonb('attributes').notNull(),
    events: jsonb('events').notNull(),
    resource: jsonb('resource').notNull(),
    scopeName: text('scope_name').notNull(),
    facts: jsonb('facts').$type<SpanFacts>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.traceId, t.spanId, t.startMs] }),
    // A step's span tree walks down by parent (db/read/span-tree.ts): without this each level
    // would read every span of the trace, tens of thousands in a long run.
    index('spans_parent_idx').on(t.projectId, t.traceId, t.parentSpanId),
  ],
);

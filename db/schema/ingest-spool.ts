import {
  bigserial,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

// Export requests accepted and not yet expanded into spans: one row per request, its body as it
// was sent (gzip stays gzip: several times less to write and read back), committed before the 200. Workers
// (ingest/spool-worker.ts) claim rows with FOR UPDATE SKIP LOCKED and delete each in the
// transaction that stores its spans, so a crash anywhere loses none and stores none twice.
export const ingestSpool = pgTable(
  'ingest_spool',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    projectId: uuid('project_id').notNull(),
    /** 'json' or 'protobuf': how `body` decodes. */
    format: text('format').notNull(),
    body: bytea('body').notNull(),
    /** Whether `body` is gzip (inflated by the worker, to at most `bytes`). */
    gzipped: boolean('gzipped').notNull().default(false),
    /** The body's size decoded: what the spool's bound counts. */
    bytes: integer('bytes').notNull(),
    /**
     * The traces its spans belong to, and the runs they name (`loop.run.id`), as the door
     * validated them: a read of one run stores that run's requests first. Empty traces for a row
     * from before they were kept: any run's.
     */
    traceIds: text('trace_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    runIds: text('run_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /** Expansions that failed (rolled back); past a limit the row waits for an operator. */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  // project_id leads the key so the table can be distributed by it (docs/scale.md, Citus).
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    index('ingest_spool_attempts_idx').on(t.attempts, t.id),
  ],
);

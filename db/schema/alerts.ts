import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// A project's alert rules. `when` is the rule's condition exactly as the API takes it (its kind
// also in `kind`, for the derive step to load only run rules). The webhook secret is kept
// encrypted (AES-256-GCM, lib/alerts/secret-box.ts): the sender must read it back to sign.
export const alertRules = pgTable(
  'alert_rules',
  {
    projectId: uuid('project_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    kind: text('kind').notNull(),
    when: jsonb('when').notNull(),
    agent: text('agent'),
    webhookUrl: text('webhook_url').notNull(),
    webhookFormat: text('webhook_format').notNull(),
    secretSealed: text('secret_sealed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] })],
);

// The outbox: one row per fired rule, written in the transaction that derived the run (or that
// judged the window). `dedupe_key` (`run:<id>`, `window:<start>`, `test:<uuid>`) makes a rule
// fire at most once per run or window however often either is judged again. The sender claims
// due rows by pushing `next_attempt_at` past its timeout (a lease): a sender that dies
// mid-request leaves the row to be tried again once the lease is over, and no other sends it
// meanwhile.
export const alertEvents = pgTable(
  'alert_events',
  {
    projectId: uuid('project_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    ruleId: uuid('rule_id').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    runId: text('run_id'),
    firedAt: timestamp('fired_at', { withTimezone: true }).notNull().defaultNow(),
    summary: text('summary').notNull(),
    /** For window events: the window the summary speaks of (`{ from, to }`). */
    detail: jsonb('detail'),
    /** pending, delivered or failed. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    uniqueIndex('alert_events_once_idx').on(t.projectId, t.ruleId, t.dedupeKey),
    index('alert_events_due_idx').on(t.status, t.nextAttemptAt),
    index('alert_events_fired_idx').on(t.projectId, t.firedAt),
  ],
);

// Every attempt to deliver an event, failed or not: the delivery log.
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    projectId: uuid('project_id').notNull(),
    eventId: uuid('event_id').notNull(),
    attempt: integer('attempt').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    httpStatus: integer('http_status'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.eventId, t.attempt] })],
);

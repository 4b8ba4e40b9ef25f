import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { EXIT_CATEGORIES, VERIFICATION_STATES } from '../../trajectory/exit-categories';
import type { RunValueProblem } from '../../trajectory/span-facts';
import type { BudgetKind } from '../../trajectory/exit-categories';
import type { VerificationSource } from '../../trajectory/verification';

export const exitCategoryEnum = pgEnum('exit_category', EXIT_CATEGORIES);
export const verificationEnum = pgEnum('verification', VERIFICATION_STATES);

// One row per run with every summary column the lists, filters and reports read; ingest keeps
// it current, so no list or aggregate ever re-scans steps or spans.
export const runs = pgTable(
  'runs',
  {
    projectId: uuid('project_id').notNull(),
    id: text('id').notNull(),
    traceIds: text('trace_ids').array().notNull(),
    rootSpanId: text('root_span_id'),
    agent: text('agent'),
    variant: text('variant'),
    goal: text('goal'),
    /** `loop.session.id` (or `session.id`, `gen_ai.conversation.id`): runs of one conversation. */
    sessionId: text('session_id'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    exitReason: text('exit_reason'),
    exitReasonSource: text('exit_reason_source'),
    exitDetail: text('exit_detail'),
    exitCategory: exitCategoryEnum('exit_category').notNull(),
    exitKind: text('exit_kind').$type<BudgetKind>(),
    verification: verificationEnum('verification').notNull(),
    verifiedUnits: doublePrecision('verified_units').notNull(),
    /** Who settled `verification`: environment, review (`loop.verified`) or human; null if no one. */
    verificationSource: text('verification_source').$type<VerificationSource>(),
    escalation: text('escalation'),
    maxSteps: doublePrecision('max_steps'),
    maxUsd: doublePrecision('max_usd'),
    wallClockMs: doublePrecision('wall_clock_ms'),
    progressDirection: text('progress_direction').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }),
    durationMs: doublePrecision('duration_ms'),
    /** Latest end (or start) of any span, for the guard's wall clock. */
    lastSpanEndMs: doublePrecision('last_span_end_ms').notNull(),
    stepCount: integer('step_count').notNull(),
    spanCount: integer('span_count').notNull(),
    costUsd: doublePrecision('cost_usd').notNull(),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull(),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull(),
    cacheReadTokens: bigint('cache_read_tokens', { mode: 'number' }).notNull(),
    /** The model with the most spend, for grouping reports by model. */
    model: text('model'),
    /** Models seen with tokens but no price: the spend is incomplete, never silently zero. */
    unpricedModels: text('unpriced_models').array().notNull(),
    repeatStep: integer('repeat_step'),
    repeatOf: integer('repeat_of'),
    revisitStep: integer('revisit_step'),
    revisitOf: integer('revisit_of'),
    revisitCycle: integer('revisit_cycle'),
    stallStep: integer('stall_step'),
    toolCircuitStep: integer('tool_circuit_step'),
    toolCircuitTool: text('tool_circuit_tool'),
    fabricatedSuccess: boolean('fabricated_success').notNull(),
    unexplainedStop: boolean('unexplained_stop').notNull(),
    /**
     * A trace of one LLM or tool call with nothing of a run about it: instrumentation that makes
     * every call its own trace (Traceloop's LangChain without an enclosing span) cannot be
     * grouped into runs, and the dashboard says so instead of counting calls as runs.
     */
    fragment: boolean('fragment').notNull().default(false),
    wastedUsd: doublePrecision('wasted_usd').notNull(),
    /**
     * Values the run's spans sent that could not be used as sent (out of range, not numbers, an
     * end before a start): how many, and the first few with the span they came in.
     */
    valueProblemCount: integer('value_problem_count').notNull().default(0),
    valueProblems: jsonb('value_problems')
      .$type<RunValueProblem[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    firstSignalStep: integer('first_signal_step'),
    /**
     * The words `q` searches (goal, agent, variant, actions, exit reason and detail, error
     * messages), gathered at derivation so a search reads one indexed column, never steps.
     */
    searchText: text('search_text').notNull().default(''),
    /** When a span of this run last arrived: a running run idle past the timeout ends `unknown`. */
    lastReceivedAt: timestamp('last_received_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.id] }),
    // The runs list by start (its default): a backward scan is its order, the cursor its bound.
    index('runs_started_idx').on(t.projectId, t.startedAt, t.id),
    // Window aggregates (tiles, chart, facets) read only these: an index-only scan.
    index('runs_window_idx').on(
      t.projectId,
      t.startedAt,
      t.exitCategory,
      t.agent,
      t.variant,
      t.costUsd,
    ),
    // The runs list's other sorts: a keyset page walks one of these from its cursor (backward
    // for desc); started_at last, so the window is checked in the index and only the page's rows
    // are fetched. The duration sort is on the expression the list orders by.
    index('runs_cost_idx').on(t.projectId, t.costUsd, t.id, t.startedAt),
    index('runs_wasted_idx').on(t.projectId, t.wastedUsd, t.id, t.startedAt),
    index('runs_steps_idx').on(t.projectId, t.stepCount, t.id, t.startedAt),
    index('runs_duration_idx').on(
      t.projectId,
      sql`coalesce(${t.durationMs}, -1)`,
      t.id,
      t.startedAt,
    ),
    index('runs_fragment_idx')
      .on(t.projectId, t.startedAt)
      .where(sql`${t.fragment}`),
    // Search: trigram matches of each word of `q` anywhere in the text (pg_trgm, on PGlite too).
    index('runs_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    // A rare word in a window: its trigrams keyed by the run's week, so only the window's weeks
    // are read (db/read/search-weeks.ts; the functions are migration 0020's).
    index('runs_search_weeks_idx').using(
      'gin',
      sql`run_search_keys(${t.startedAt}, ${t.searchText})`,
    ),
    // Sessions: a session's runs, and the window's sessions, without touching other runs.
    index('runs_session_idx')
      .on(t.projectId, t.sessionId, t.startedAt)
      .where(sql`${t.sessionId} is not null`),
    index('runs_running_idx')
      .on(t.lastReceivedAt)
      .where(sql`${t.exitCategory} = 'running'`),
  ],
);

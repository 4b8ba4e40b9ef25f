import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { asJsonParam, asPgArray } from '../sql';
import type { runs } from '../schema';
import { applyDelta, contributionsOf } from './rollup-delta';
import { RUN_ROLLUP } from './run-rollups';
import { WEEKLY_ROLLUP } from './weekly-rollups';
import { replaceSteps } from './save-steps';
import type { StepRow } from './save-steps';

/** Every rollup kept current with the runs, in the order their keys are locked. */
const ROLLUPS = [WEEKLY_ROLLUP, RUN_ROLLUP];

/**
 * A run's summary columns as derivation computes them: the runs table's insert row, with times
 * as epoch milliseconds (the statement turns them into timestamps).
 */
export type RunRow = Required<
  Omit<
    typeof runs.$inferInsert,
    'projectId' | 'startedAt' | 'endedAt' | 'lastReceivedAt' | 'updatedAt'
  >
> & { startedAtMs: number; endedAtMs: number | null };

/**
 * Replaces the summary rows and steps of the given runs; runs left without spans are removed.
 * The rollups (weekly; hourly and daily) follow in the same transaction: old contributions out,
 * new ones in.
 */
export async function saveRuns(
  tx: Executor,
  projectId: string,
  runs: readonly RunRow[],
  steps: readonly StepRow[],
  emptyRunIds: readonly string[],
  /** Steps starting before this are left to the weekly partitions retention is about to drop. */
  stepsDroppedBeforeMs?: number,
): Promise<void> {
  const touched = [...runs.map((r) => r.id), ...emptyRunIds];
  if (touched.length === 0) return;
  const before = [];
  for (const rollup of ROLLUPS) before.push(await contributionsOf(tx, rollup, projectId, touched));
  await replaceSteps(tx, projectId, touched, steps, stepsDroppedBeforeMs);
  if (emptyRunIds.length > 0) {
    await tx.execute(sql`delete from runs where project_id = ${projectId}::uuid
      and id = any(${asPgArray(emptyRunIds)}::text[])`);
  }
  if (runs.length > 0) await upsertRuns(tx, projectId, runs);
  for (const [k, rollup] of ROLLUPS.entries()) {
    await applyDelta(tx, rollup, projectId, touched, before[k] ?? []);
  }
}

async function upsertRuns(tx: Executor, projectId: string, runs: readonly RunRow[]): Promise<void> {
  await tx.execute(sql`
    insert into runs (project_id, id, trace_ids, root_span_id, agent, variant, goal, session_id,
      tags, search_text, verification_source, exit_reason,
      exit_reason_source, exit_detail, exit_category, exit_kind, verification, verified_units,
      escalation, max_steps, max_usd, wall_clock_ms, progress_direction, started_at, ended_at,
      duration_ms, last_span_end_ms, step_count, span_count, cost_usd, input_tokens, output_tokens,
      cache_read_tokens, model, unpriced_models, repeat_step, repeat_of, revisit_step, revisit_of,
      revisit_cycle, stall_step, tool_circuit_step, tool_circuit_tool, fabricated_success,
      unexplained_stop, fragment, wasted_usd, first_signal_step, value_problem_count,
      value_problems, last_received_at, updated_at)
    select ${projectId}::uuid, x.id, array(select jsonb_array_elements_text(x."traceIds")),
      x."rootSpanId", x.agent, x.variant, x.goal, x."sessionId",
      array(select jsonb_array_elements_text(x.tags)), x."searchText", x."verificationSource",
      x."exitReason", x."exitReasonSource", x."exitDetail",
      x."exitCategory"::exit_category, x."exitKind", x.verification::verification, x."verifiedUnits",
      x.escalation, x."maxSteps", x."maxUsd", x."wallClockMs", x."progressDirection",
      to_timestamp(x."startedAtMs" / 1000.0), to_timestamp(x."endedAtMs" / 1000.0), x."durationMs",
      x."lastSpanEndMs", x."stepCount", x."spanCount", x."costUsd", x."inputTokens", x."outputTokens",
      x."cacheReadTokens", x.model, array(select jsonb_array_elements_text(x."unpricedModels")),
      x."repeatStep", x."repeatOf", x."revisitStep", x."revisitOf", x."revisitCycle", x."stallStep",
      x."toolCircuitStep", x."toolCircuitTool", x."fabricatedSuccess", x."unexplainedStop", x.fragment,
      x."wastedUsd", x."firstSignalStep", x."valueProblemCount", x."valueProblems", now(), now()
    from jsonb_to_recordset(${asJsonParam(runs)}::jsonb) as x(id text, "traceIds" jsonb,
      "rootSpanId" text, agent text, variant text, goal text, "sessionId" text, tags jsonb,
      "searchText" text, "verificationSource" text, "exitReason" text,
      "exitReasonSource" text, "exitDetail" text, "exitCategory" text, "exitKind" text,
      verification text, "verifiedUnits" float8, escalation text, "maxSteps" float8, "maxUsd" float8,
      "wallClockMs" float8, "progressDirection" text, "startedAtMs" float8, "endedAtMs" float8,
      "durationMs" float8, "lastSpanEndMs" float8, "stepCount" int, "spanCount" int, "costUsd" float8,
      "inputTokens" bigint, "outputTokens" bigint, "cacheReadTokens" bigint, model text,
      "unpricedModels" jsonb, "repeatStep" int, "repeatOf" int, "revisitStep" int, "revisitOf" int,
      "revisitCycle" int, "stallStep" int, "toolCircuitStep" int, "toolCircuitTool" text,
      "fabricatedSuccess" boolean, "unexplainedStop" boolean, fragment boolean, "wastedUsd" float8,
      "firstSignalStep" int, "valueProblemCount" int, "valueProblems" jsonb)
    on conflict (project_id, id) do update set
      trace_ids = excluded.trace_ids, root_span_id = excluded.root_span_id, agent = excluded.agent,
      variant = excluded.variant, goal = excluded.goal, session_id = excluded.session_id,
      tags = excluded.tags, search_text = excluded.search_text,
      verification_source = excluded.verification_source, exit_reason = excluded.exit_reason,
      exit_reason_source = excluded.exit_reason_source, exit_detail = excluded.exit_detail,
      exit_category = excluded.exit_category, exit_kind = excluded.exit_kind,
      verification = excluded.verification, verified_units = excluded.verified_units,
      escalation = excluded.escalation, max_steps = excluded.max_steps, max_usd = excluded.max_usd,
      wall_clock_ms = excluded.wall_clock_ms, progress_direction = excluded.progress_direction,
      started_at = excluded.started_at, ended_at = excluded.ended_at,
      duration_ms = excluded.duration_ms, last_span_end_ms = excluded.last_span_end_ms,
      step_count = excluded.step_count, span_count = excluded.span_count,
      cost_usd = excluded.cost_usd, input_tokens = excluded.input_tokens,
      output_tokens = excluded.output_tokens, cache_read_tokens = excluded.cache_read_tokens,
      model = excluded.model, unpriced_models = excluded.unpriced_models,
      repeat_step = excluded.repeat_step, repeat_of = excluded.repeat_of,
      revisit_step = excluded.revisit_step, revisit_of = excluded.revisit_of,
      revisit_cycle = excluded.revisit_cycle, stall_step = excluded.stall_step,
      tool_circuit_step = excluded.tool_circuit_step,
      tool_circuit_tool = excluded.tool_circuit_tool,
      fabricated_success = excluded.fabricated_success,
      unexplained_stop = excluded.unexplained_stop, fragment = excluded.fragment,
      wasted_usd = excluded.wasted_usd,
      first_signal_step = excluded.first_signal_step,
      value_problem_count = excluded.value_problem_count,
      value_problems = excluded.value_problems,
      last_received_at = excluded.last_received_at, updated_at = excluded.updated_at
  `);
}

import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { asJsonParam, asPgArray } from '../sql';
import type { RunValueProblem } from '../../trajectory/span-facts';
import { applyRunRollupDelta, runContributions } from './run-rollups';
import { applyRollupDelta, rollupContributions } from './weekly-rollups';

const STEP_CHUNK = 5000;

/** A run's summary columns, as ingest derived them. */
export interface RunRow {
  id: string;
  trace_ids: string[];
  root_span_id: string | null;
  agent: string | null;
  variant: string | null;
  goal: string | null;
  exit_reason: string | null;
  exit_reason_source: string | null;
  exit_detail: string | null;
  exit_category: string;
  exit_kind: string | null;
  verification: string;
  verified_units: number;
  escalation: string | null;
  max_steps: number | null;
  max_usd: number | null;
  wall_clock_ms: number | null;
  progress_direction: string;
  started_at_ms: number;
  ended_at_ms: number | null;
  duration_ms: number | null;
  last_span_end_ms: number;
  step_count: number;
  span_count: number;
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  model: string | null;
  unpriced_models: string[];
  repeat_step: number | null;
  repeat_of: number | null;
  revisit_step: number | null;
  revisit_of: number | null;
  revisit_cycle: number | null;
  stall_step: number | null;
  tool_circuit_step: number | null;
  tool_circuit_tool: string | null;
  fabricated_success: boolean;
  unexplained_stop: boolean;
  fragment: boolean;
  wasted_usd: number;
  first_signal_step: number | null;
  value_problem_count: number;
  value_problems: RunValueProblem[];
}

export interface StepRow {
  run_id: string;
  ordinal: number;
  index: number;
  trace_id: string;
  span_id: string;
  name: string;
  start_ms: number;
  duration_ms: number | null;
  action: string | null;
  action_args: string | null;
  action_hash: string | null;
  state_hash: string | null;
  result: string | null;
  result_hash: string | null;
  progress: number | null;
  verdict: string | null;
  verdict_source: string | null;
  verdict_fields: Record<string, boolean> | null;
  error_class: string | null;
  cost_usd: number;
  input_tokens: number;
  output_tokens: number;
  context_tokens: number | null;
  signals: string[];
  repeat_of: number | null;
  revisit_of: number | null;
  revisit_cycle: number | null;
  stall_since: number | null;
}

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
): Promise<void> {
  const touched = [...runs.map((r) => r.id), ...emptyRunIds];
  if (touched.length === 0) return;
  const before = await rollupContributions(tx, projectId, touched);
  const runsBefore = await runContributions(tx, projectId, touched);
  await tx.execute(sql`delete from steps where project_id = ${projectId}::uuid
    and run_id = any(${asPgArray(touched)}::text[])`);
  if (emptyRunIds.length > 0) {
    await tx.execute(sql`delete from runs where project_id = ${projectId}::uuid
      and id = any(${asPgArray(emptyRunIds)}::text[])`);
  }
  if (runs.length > 0) await upsertRuns(tx, projectId, runs);
  // A run of many thousand steps would make one parameter of hundreds of megabytes.
  for (let k = 0; k < steps.length; k += STEP_CHUNK) {
    await insertSteps(tx, projectId, steps.slice(k, k + STEP_CHUNK));
  }
  await applyRollupDelta(tx, projectId, touched, before);
  await applyRunRollupDelta(tx, projectId, touched, runsBefore);
}

async function upsertRuns(tx: Executor, projectId: string, runs: readonly RunRow[]): Promise<void> {
  await tx.execute(sql`
    insert into runs (project_id, id, trace_ids, root_span_id, agent, variant, goal, exit_reason,
      exit_reason_source, exit_detail, exit_category, exit_kind, verification, verified_units,
      escalation, max_steps, max_usd, wall_clock_ms, progress_direction, started_at, ended_at,
      duration_ms, last_span_end_ms, step_count, span_count, cost_usd, input_tokens, output_tokens,
      cache_read_tokens, model, unpriced_models, repeat_step, repeat_of, revisit_step, revisit_of,
      revisit_cycle, stall_step, tool_circuit_step, tool_circuit_tool, fabricated_success,
      unexplained_stop, fragment, wasted_usd, first_signal_step, value_problem_count,
      value_problems, last_received_at, updated_at)
    select ${projectId}::uuid, x.id, array(select jsonb_array_elements_text(x.trace_ids)),
      x.root_span_id, x.agent, x.variant, x.goal, x.exit_reason, x.exit_reason_source, x.exit_detail,
      x.exit_category::exit_category, x.exit_kind, x.verification::verification, x.verified_units,
      x.escalation, x.max_steps, x.max_usd, x.wall_clock_ms, x.progress_direction,
      to_timestamp(x.started_at_ms / 1000.0), to_timestamp(x.ended_at_ms / 1000.0), x.duration_ms,
      x.last_span_end_ms, x.step_count, x.span_count, x.cost_usd, x.input_tokens, x.output_tokens,
      x.cache_read_tokens, x.model, array(select jsonb_array_elements_text(x.unpriced_models)),
      x.repeat_step, x.repeat_of, x.revisit_step, x.revisit_of, x.revisit_cycle, x.stall_step,
      x.tool_circuit_step, x.tool_circuit_tool, x.fabricated_success, x.unexplained_stop, x.fragment,
      x.wasted_usd, x.first_signal_step, x.value_problem_count, x.value_problems, now(), now()
    from jsonb_to_recordset(${asJsonParam(runs)}::jsonb) as x(id text, trace_ids jsonb,
      root_span_id text, agent text, variant text, goal text, exit_reason text,
      exit_reason_source text, exit_detail text, exit_category text, exit_kind text,
      verification text, verified_units float8, escalation text, max_steps float8, max_usd float8,
      wall_clock_ms float8, progress_direction text, started_at_ms float8, ended_at_ms float8,
      duration_ms float8, last_span_end_ms float8, step_count int, span_count int, cost_usd float8,
      input_tokens bigint, output_tokens bigint, cache_read_tokens bigint, model text,
      unpriced_models jsonb, repeat_step int, repeat_of int, revisit_step int, revisit_of int,
      revisit_cycle int, stall_step int, tool_circuit_step int, tool_circuit_tool text,
      fabricated_success boolean, unexplained_stop boolean, fragment boolean, wasted_usd float8,
      first_signal_step int, value_problem_count int, value_problems jsonb)
    on conflict (project_id, id) do update set
      trace_ids = excluded.trace_ids, root_span_id = excluded.root_span_id, agent = excluded.agent,
      variant = excluded.variant, goal = excluded.goal, exit_reason = excluded.exit_reason,
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

async function insertSteps(
  tx: Executor,
  projectId: string,
  steps: readonly StepRow[],
): Promise<void> {
  await tx.execute(sql`
    insert into steps (project_id, run_id, ordinal, index, trace_id, span_id, name, start_ms,
      duration_ms, action, action_args, action_hash, state_hash, result, result_hash, progress,
      verdict, verdict_source, verdict_fields, error_class, cost_usd, input_tokens, output_tokens,
      context_tokens, signals, repeat_of, revisit_of, revisit_cycle, stall_since)
    select ${projectId}::uuid, x.run_id, x.ordinal, x.index, x.trace_id, x.span_id, x.name,
      x.start_ms, x.duration_ms, x.action, x.action_args, x.action_hash, x.state_hash, x.result,
      x.result_hash, x.progress, x.verdict, x.verdict_source, x.verdict_fields, x.error_class,
      x.cost_usd, x.input_tokens, x.output_tokens, x.context_tokens,
      array(select jsonb_array_elements_text(x.signals)), x.repeat_of, x.revisit_of,
      x.revisit_cycle, x.stall_since
    from jsonb_to_recordset(${asJsonParam(steps)}::jsonb) as x(run_id text, ordinal int, index int,
      trace_id text, span_id text, name text, start_ms float8, duration_ms float8, action text,
      action_args text, action_hash text, state_hash text, result text, result_hash text,
      progress float8, verdict text, verdict_source text, verdict_fields jsonb, error_class text,
      cost_usd float8, input_tokens bigint, output_tokens bigint, context_tokens bigint,
      signals jsonb, repeat_of int, revisit_of int, revisit_cycle int, stall_since int)
  `);
}

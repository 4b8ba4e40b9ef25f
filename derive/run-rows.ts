// An assembled and derived run as the rows db/ stores.
import type { RunRow, StepRow } from '../db/write/save-runs';
import type { DerivedRun } from '../trajectory/derive-run';
import type { AssembledRun } from './assemble-run';

export function toRunRow(
  id: string,
  traceIds: string[],
  run: AssembledRun,
  derived: DerivedRun,
): RunRow {
  const firstSignal =
    derived.firstLoopSignalAt === null ? null : run.steps[derived.firstLoopSignalAt];
  const { flags } = derived;
  return {
    id,
    trace_ids: traceIds,
    root_span_id: run.rootSpanId,
    agent: run.agent,
    variant: run.variant,
    goal: run.goal,
    exit_reason: run.input.exitReason?.raw ?? null,
    exit_reason_source: run.input.exitReason?.source ?? null,
    exit_detail: run.input.exitDetail,
    exit_category: derived.exitCategory,
    exit_kind: derived.exitKind,
    verification: derived.verification,
    verified_units: derived.verifiedUnits,
    escalation: run.escalation,
    max_steps: run.limits.maxSteps,
    max_usd: run.limits.maxUsd,
    wall_clock_ms: run.limits.wallClockMs,
    progress_direction: run.input.progressDirection,
    started_at_ms: run.startedAtMs,
    ended_at_ms: run.endedAtMs,
    duration_ms: run.endedAtMs === null ? null : run.endedAtMs - run.startedAtMs,
    last_span_end_ms: run.lastSpanEndMs,
    step_count: run.steps.length,
    span_count: run.spanCount,
    cost_usd: run.spend.costUsd,
    input_tokens: run.spend.inputTokens,
    output_tokens: run.spend.outputTokens,
    cache_read_tokens: run.spend.cacheReadTokens,
    model: run.model,
    unpriced_models: run.unpricedModels,
    repeat_step: flags.repeat?.step ?? null,
    repeat_of: flags.repeat?.of ?? null,
    revisit_step: flags.revisit?.step ?? null,
    revisit_of: flags.revisit?.of ?? null,
    revisit_cycle: flags.revisit?.cycleLength ?? null,
    stall_step: flags.stall?.step ?? null,
    tool_circuit_step: flags.toolCircuit?.step ?? null,
    tool_circuit_tool: flags.toolCircuit?.tool ?? null,
    fabricated_success: flags.fabricatedSuccess,
    unexplained_stop: flags.unexplainedStop,
    fragment: run.fragment,
    wasted_usd: derived.wastedUsd,
    first_signal_step: firstSignal?.index ?? null,
    value_problem_count: run.valueProblems.count,
    value_problems: run.valueProblems.first,
  };
}

export function toStepRows(runId: string, run: AssembledRun, derived: DerivedRun): StepRow[] {
  return run.steps.map((step, k) => {
    const found = derived.steps[k];
    return {
      run_id: runId,
      ordinal: k + 1,
      index: step.index,
      trace_id: step.traceId,
      span_id: step.spanId,
      name: step.name,
      start_ms: step.startMs,
      duration_ms: step.durationMs,
      action: step.action,
      action_args: step.actionArgs,
      action_hash: step.actionHash,
      state_hash: step.stateHash,
      result: step.result,
      result_hash: step.resultHash,
      progress: step.progress,
      verdict: step.verdict,
      verdict_source: step.verdictSource,
      verdict_fields: step.verdictFields,
      error_class: step.errorClass,
      cost_usd: step.costUsd,
      input_tokens: step.inputTokens,
      output_tokens: step.outputTokens,
      context_tokens: step.contextTokens,
      signals: found?.signals ?? [],
      repeat_of: found?.repeatOf ?? null,
      revisit_of: found?.revisitOf ?? null,
      revisit_cycle: found?.revisitCycle ?? null,
      stall_since: found?.stallSince ?? null,
    };
  });
}

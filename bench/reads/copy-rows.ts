// The generated runs and steps as COPY text lines for the runs and steps tables, every column
// ingest writes (db/write/save-runs.ts), so the tables look as ingest would leave them.
import type { GeneratedRun, GeneratedStep } from './dataset';

export const RUN_COLUMNS = [
  'project_id',
  'id',
  'trace_ids',
  'root_span_id',
  'agent',
  'variant',
  'goal',
  'exit_reason',
  'exit_reason_source',
  'exit_detail',
  'exit_category',
  'exit_kind',
  'verification',
  'verified_units',
  'escalation',
  'max_steps',
  'max_usd',
  'wall_clock_ms',
  'progress_direction',
  'started_at',
  'ended_at',
  'duration_ms',
  'last_span_end_ms',
  'step_count',
  'span_count',
  'cost_usd',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'model',
  'unpriced_models',
  'repeat_step',
  'repeat_of',
  'revisit_step',
  'revisit_of',
  'revisit_cycle',
  'stall_step',
  'tool_circuit_step',
  'tool_circuit_tool',
  'fabricated_success',
  'unexplained_stop',
  'wasted_usd',
  'first_signal_step',
  'last_received_at',
  'updated_at',
  'session_id',
  'search_text',
] as const;

export const STEP_COLUMNS = [
  'project_id',
  'run_id',
  'ordinal',
  'index',
  'trace_id',
  'span_id',
  'name',
  'start_ms',
  'duration_ms',
  'action',
  'action_args',
  'action_hash',
  'state_hash',
  'result',
  'result_hash',
  'progress',
  'verdict',
  'verdict_source',
  'verdict_fields',
  'error_class',
  'cost_usd',
  'input_tokens',
  'output_tokens',
  'context_tokens',
  'signals',
  'repeat_of',
  'revisit_of',
  'revisit_cycle',
  'stall_since',
] as const;

/** `COPY table (columns)` with the columns quoted (`index` is a keyword). */
export function copyTarget(table: 'runs' | 'steps'): string {
  const columns = table === 'runs' ? RUN_COLUMNS : STEP_COLUMNS;
  return `${table} (${columns.map((c) => `"${c}"`).join(', ')})`;
}

type Value = string | number | boolean | null;

// Generated text never holds tabs, newlines or backslashes; escape anyway, cheaply.
const text = (v: Value): string =>
  v === null
    ? '\\N'
    : typeof v === 'string'
      ? /[\\\t\n\r]/.test(v)
        ? v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
        : v
      : typeof v === 'boolean'
        ? v
          ? 't'
          : 'f'
        : String(v);

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function runLine(projectId: string, run: GeneratedRun): string {
  const lastEnd = run.endedAtMs ?? run.steps[run.steps.length - 1]!.startMs + 500;
  const values: Value[] = [
    projectId,
    run.id,
    `{${run.id}}`,
    run.rootSpanId,
    run.agent,
    run.variant,
    run.goal,
    run.exitReason,
    run.exitReason === null ? null : 'attribute',
    run.exitDetail,
    run.exitCategory,
    run.exitCategory === 'budget_exhausted' ? 'steps' : null,
    run.verification,
    run.verifiedUnits,
    null,
    50,
    null,
    null,
    'down',
    iso(run.startedAtMs),
    iso(run.endedAtMs),
    run.durationMs,
    lastEnd,
    run.stepCount,
    run.spanCount,
    run.costUsd,
    run.inputTokens,
    run.outputTokens,
    0,
    run.model,
    '{}',
    run.repeatStep,
    run.repeatOf,
    run.revisitStep,
    run.revisitOf,
    run.revisitStep === null ? null : 2,
    run.stallStep,
    run.toolCircuitStep,
    run.toolCircuitStep === null ? null : 'http_get',
    run.fabricatedSuccess,
    false,
    run.wastedUsd,
    run.firstSignalStep,
    iso(lastEnd),
    iso(lastEnd),
    run.sessionId,
    run.searchText,
  ];
  return values.map(text).join('\t') + '\n';
}

export function stepLine(projectId: string, run: GeneratedRun, step: GeneratedStep): string {
  const values: Value[] = [
    projectId,
    run.id,
    step.ordinal,
    step.ordinal,
    run.id,
    step.resultHash,
    `step ${step.ordinal} ${step.action}`,
    step.startMs,
    step.durationMs,
    step.action,
    step.args,
    step.actionHash,
    step.stateHash,
    step.result,
    step.resultHash,
    step.progress,
    step.verdict,
    step.verdictSource,
    null,
    step.errorClass,
    step.costUsd,
    step.inputTokens,
    step.outputTokens,
    step.contextTokens,
    `{${step.signals.join(',')}}`,
    step.repeatOf,
    step.revisitOf,
    step.revisitCycle,
    step.stallSince,
  ];
  return values.map(text).join('\t') + '\n';
}

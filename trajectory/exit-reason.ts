import type { BudgetKind, ExitCategory } from './exit-categories';

export type ExitReasonSource = 'attribute' | 'finish_reason' | 'exception' | 'status';

export type ExitReasonInput = {
  raw: string | null;
  source?: ExitReasonSource;
  detail?: string | null;
  ended: boolean;
};

export type ExitClassification = { category: ExitCategory; kind: BudgetKind | null };

export type ExitRule = {
  name: string;
  category: ExitCategory;
  // 'infer' reads the kind from the reason's qualifier, then the reason itself, then the detail.
  kind?: BudgetKind | 'infer';
  // Whole reasons, compared after normalizeReason.
  reasons?: readonly string[];
  // Substrings of the normalised reason: a net for variants, used by the last rules only.
  contains?: readonly string[];
  sources?: readonly ExitReasonSource[];
};

const words = (list: string): string[] => list.trim().split(/\s+/);

// Priority order: the first rule that matches wins; classifyExitReason falls back after the last.
export const EXIT_RULES: readonly ExitRule[] = [
  {
    name: 'status-without-reason',
    category: 'unknown',
    sources: ['status'],
    reasons: words('ok unset status_code_ok status_code_unset'),
  },
  {
    name: 'goal-satisfied',
    category: 'goal_satisfied',
    reasons: words(`
      goal_satisfied goal_met goal_reached goal_achieved success succeeded pass passed
    `),
  },
  {
    name: 'model-stopped',
    category: 'model_stopped',
    reasons: words(`
      model_stopped end_turn stop stop_sequence final_output final_answer finish finished completed complete
      done agent_finish no_tool_call TextMentionTermination StopMessageTermination
    `),
  },
  // A tool-call finish reason is the run's last word only when the loop stopped before running
  // the call the model asked for: the harness cut it off mid-action, which is a step limit.
  {
    name: 'cut-while-acting',
    category: 'budget_exhausted',
    kind: 'steps',
    reasons: words('tool_calls tool_call tool_use function_call pause_turn'),
  },
  {
    name: 'step-budget',
    category: 'budget_exhausted',
    kind: 'steps',
    reasons: words(`
      step_ceiling max_steps step_limit max_turns limit_turns turn_limit MaxTurnsExceeded
      max_turn_requests max_iterations max_iter iteration_limit GraphRecursionError
      graph_recursion_limit recursion_limit call_limit_exceeded max_messages
      MaxMessageTermination request_limit
    `),
  },
  {
    name: 'token-budget',
    category: 'budget_exhausted',
    kind: 'tokens',
    reasons: words(`
      limit_total_tokens limit_output_tokens token_budget token_limit max_total_tokens
      total_tokens_limit TokenUsageTermination
    `),
  },
  {
    name: 'cost-budget',
    category: 'budget_exhausted',
    kind: 'cost',
    reasons: words('cost_budget max_usd max_cost cost_limit cost_ceiling spend_limit'),
  },
  {
    name: 'deadline',
    category: 'budget_exhausted',
    kind: 'deadline',
    reasons: words(`
      deadline deadline_exceeded time_budget time_limit timeout timed_out wall_clock
      wall_clock_ms max_time max_duration max_execution_time TimeoutTermination
    `),
  },
  {
    name: 'budget',
    category: 'budget_exhausted',
    kind: 'infer',
    reasons: words('budget_exhausted budget_exceeded budget limit_exceeded UsageLimitExceeded'),
  },
  {
    name: 'no-progress',
    category: 'no_progress',
    reasons: words(`
      no_progress no_state_progress stalled stall stuck repeated_call repeated_calls
      repeated_identical_calls cyclical_loop loop_detected doom_loop
    `),
  },
  {
    name: 'escalated',
    category: 'escalated',
    reasons: words(`
      escalated escalate escalation pending_approval requires_approval approval_required
      requires_action input_required human_review interrupt GraphInterrupt NodeInterrupt
      HandoffTermination
    `),
  },
  {
    name: 'tool-circuit-open',
    category: 'tool_circuit_open',
    reasons: words('tool_circuit_open circuit_open circuit_breaker_open'),
  },
  { name: 'goal-drift', category: 'goal_drift', reasons: words('goal_drift') },
  {
    name: 'cancelled',
    category: 'cancelled',
    reasons: words(`
      cancelled canceled cancel aborted abort AbortError CancelledError KeyboardInterrupt
      ExternalTermination guardrail guardrail_intervened InputGuardrailTripwireTriggered
      OutputGuardrailTripwireTriggered ToolInputGuardrailTripwireTriggered
      ToolOutputGuardrailTripwireTriggered content_filter content_filtered refusal
      ModelRefusalError safety recitation blocklist prohibited_content spii image_safety
    `),
  },
  {
    name: 'hard-error',
    category: 'hard_error',
    reasons: words(`
      hard_error error errored exception failed failure fatal crashed status_code_error
      tool_failure tool_error AgentsException ModelBehaviorError UserError
      UnexpectedModelBehavior InvalidUpdateError EmptyInputError EmptyChannelError
      invalid_concurrent_graph_update invalid_graph_node_return_value invalid_chat_history
      EventLoopException ModelThrottledException llm_api_error invalid_llm_response
      invalid_tool_call malformed_function_call unexpected_tool_call
    `),
  },
  // The model's output was cut at its own token limit: the answer is broken, no budget was hit.
  {
    name: 'output-cut',
    category: 'hard_error',
    reasons: words(`
      max_tokens length max_output_tokens MaxTokensReachedException
      model_context_window_exceeded context_window_exceeded ContextWindowOverflowException
    `),
  },
  {
    name: 'no-reason-named',
    category: 'unknown',
    reasons: words('unknown unspecified finish_reason_unspecified'),
  },
  { name: 'guardrail-variant', category: 'cancelled', contains: words('guardrail') },
  {
    name: 'step-limit-variant',
    category: 'budget_exhausted',
    kind: 'steps',
    contains: words('recursionlimit maxturns maxsteps maxiterations'),
  },
  {
    name: 'budget-variant',
    category: 'budget_exhausted',
    kind: 'infer',
    contains: words('budget'),
  },
];

export function normalizeReason(raw: string): string {
  return raw.toLowerCase().replace(/[\s_.-]+/g, '');
}

type CompiledRule = { rule: ExitRule; exact: ReadonlySet<string>; contains: readonly string[] };

const COMPILED: readonly CompiledRule[] = EXIT_RULES.map((rule) => ({
  rule,
  exact: new Set((rule.reasons ?? []).map(normalizeReason)),
  contains: (rule.contains ?? []).map(normalizeReason),
}));

// A reason that needed its Error/Exception suffix dropped to match names a failure, so it may
// not land in a category that claims success or names no reason (`StopError` is not a stop).
const NOT_FROM_ERROR_NAMES: ReadonlySet<ExitCategory> = new Set([
  'goal_satisfied',
  'model_stopped',
  'unknown',
]);

function findRule(
  keys: readonly string[],
  source: ExitReasonSource | undefined,
  fromErrorName: boolean,
): ExitRule | null {
  for (const { rule, exact, contains } of COMPILED) {
    if (rule.sources && (!source || !rule.sources.includes(source))) continue;
    if (fromErrorName && NOT_FROM_ERROR_NAMES.has(rule.category)) continue;
    if (keys.some((k) => exact.has(k) || contains.some((c) => k.includes(c)))) return rule;
  }
  return null;
}

// `budget_exhausted:cost`, `budget_exhausted(steps)` and `TimeoutError: took 31s` all carry a
// qualifier after the reason proper.
function splitQualifier(raw: string): { base: string; qualifier: string | null } {
  const at = raw.search(/[:([]/);
  const base = at > 0 ? raw.slice(0, at).trim() : '';
  if (base === '') return { base: raw, qualifier: null };
  let qualifier = raw.slice(at + 1).trim();
  if (qualifier.endsWith(')') || qualifier.endsWith(']')) qualifier = qualifier.slice(0, -1).trim();
  return { base, qualifier: qualifier || null };
}

function matchRule(base: string, source: ExitReasonSource | undefined): ExitRule | null {
  // `agents.exceptions.MaxTurnsExceeded`: the whole dotted name first, then its last segment.
  const lastSegment = base.slice(base.lastIndexOf('.') + 1);
  const keys = [...new Set([normalizeReason(base), normalizeReason(lastSegment)])].filter(Boolean);
  const found = findRule(keys, source, false);
  if (found) return found;
  const stripped = keys
    .map((k) => k.replace(/(error|exception)$/, ''))
    .filter((k, i) => k !== '' && k !== keys[i]);
  return stripped.length > 0 ? findRule(stripped, source, true) : null;
}

const KIND_WORDS: ReadonlyMap<string, BudgetKind> = new Map([
  ...words('step steps turn turns iteration iterations iter recursion call calls').map(
    (w) => [w, 'steps'] as const,
  ),
  ...words('request requests message messages').map((w) => [w, 'steps'] as const),
  ...words('token tokens').map((w) => [w, 'tokens'] as const),
  ...words('cost usd dollar dollars price money $').map((w) => [w, 'cost'] as const),
  ...words('deadline time timeout clock duration elapsed seconds ms').map(
    (w) => [w, 'deadline'] as const,
  ),
]);

// The first word that names a kind decides: "turns" in `max_turns`, "usd" in `maxUsd`.
export function budgetKindFromText(text: string): BudgetKind | null {
  const tokens = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .match(/[a-z]+|\$/g);
  for (const token of tokens ?? []) {
    const kind = KIND_WORDS.get(token);
    if (kind) return kind;
  }
  return null;
}

const KIND_KEYS = words('kind budget budget_kind budgetKind limit limit_kind type resource');

export function budgetKindFromDetail(detail: string | null | undefined): BudgetKind | null {
  if (!detail?.trim()) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(detail);
  } catch {
    return budgetKindFromText(detail);
  }
  if (typeof parsed === 'string') return budgetKindFromText(parsed);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const record = parsed as Record<string, unknown>;
  for (const key of KIND_KEYS) {
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    const kind = typeof value === 'string' ? budgetKindFromText(value) : null;
    if (kind) return kind;
  }
  // `{"max_usd": 2, "spent_usd": 2.4}` names its budget only in its keys.
  return budgetKindFromText(Object.keys(record).join(' '));
}

export function classifyExitReason(input: ExitReasonInput): ExitClassification {
  const raw = input.raw?.trim() ?? '';
  if (normalizeReason(raw) === '') {
    return { category: input.ended ? 'unknown' : 'running', kind: null };
  }
  const { base, qualifier } = splitQualifier(raw);
  const rule = matchRule(base, input.source);
  if (!rule) {
    const namesAnError = input.source === 'exception' || input.source === 'status';
    return { category: namesAnError ? 'hard_error' : 'other', kind: null };
  }
  if (rule.category !== 'budget_exhausted') return { category: rule.category, kind: null };
  if (rule.kind && rule.kind !== 'infer') return { category: 'budget_exhausted', kind: rule.kind };
  const kind =
    (qualifier ? budgetKindFromText(qualifier) : null) ??
    budgetKindFromText(base) ??
    budgetKindFromDetail(input.detail);
  return { category: 'budget_exhausted', kind };
}

const TOOL_CALL_FINISH = new Set(
  (EXIT_RULES.find((rule) => rule.name === 'cut-while-acting')?.reasons ?? []).map(normalizeReason),
);

/** A finish reason that says the model asked for a tool (`tool_calls`, `toolUse`, ...). */
export function isToolCallFinish(raw: string): boolean {
  return TOOL_CALL_FINISH.has(normalizeReason(raw));
}

/**
 * Categories a span below the root can name for the whole run: a person was asked (escalated), a
 * guardrail stopped it (cancelled), a framework's own limit ended it (a budget, but not a
 * deadline: a tool's own timeout is not the run's).
 */
export function stopsTheRun(classification: ExitClassification): boolean {
  const { category, kind } = classification;
  if (category === 'escalated' || category === 'cancelled') return true;
  return category === 'budget_exhausted' && kind !== 'deadline';
}

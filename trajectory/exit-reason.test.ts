import { describe, expect, it } from 'vitest';
import {
  BUDGET_KINDS,
  EXIT_CATEGORIES,
  EXIT_CATEGORY_META,
  isSuccessClaim,
} from './exit-categories';
import type { BudgetKind, ExitCategory } from './exit-categories';
import {
  EXIT_RULES,
  budgetKindFromDetail,
  classifyExitReason,
  normalizeReason,
} from './exit-reason';
import type { ExitReasonSource } from './exit-reason';

type Row = [raw: string, category: ExitCategory, kind?: BudgetKind | null];

const classify = (raw: string | null, source?: ExitReasonSource, detail?: string | null) =>
  classifyExitReason({ raw, source, detail, ended: true });

describe('classifyExitReason: vocabularies', () => {
  const rows: Row[] = [
    // docs/conventions.md table and harness exits
    ['goal_satisfied', 'goal_satisfied'],
    ['goal_met', 'goal_satisfied'],
    ['success', 'goal_satisfied'],
    ['pass', 'goal_satisfied'],
    ['end_turn', 'model_stopped'],
    ['model_stopped', 'model_stopped'],
    ['final_output', 'model_stopped'],
    ['finish', 'model_stopped'],
    ['completed', 'model_stopped'],
    ['no_progress', 'no_progress'],
    ['stalled', 'no_progress'],
    ['escalated', 'escalated'],
    ['escalate', 'escalated'],
    ['pending_approval', 'escalated'],
    ['interrupt', 'escalated'],
    ['tool_circuit_open', 'tool_circuit_open'],
    ['goal_drift', 'goal_drift'],
    ['cancelled', 'cancelled'],
    ['canceled', 'cancelled'],
    ['aborted', 'cancelled'],
    ['guardrail', 'cancelled'],
    ['hard_error', 'hard_error'],
    ['error', 'hard_error'],
    ['exception', 'hard_error'],
    ['tool_failure', 'hard_error'],
    // TypeScript Termination kinds
    ['step_ceiling', 'budget_exhausted', 'steps'],
    ['cost_budget', 'budget_exhausted', 'cost'],
    ['deadline', 'budget_exhausted', 'deadline'],
    // Strands stop reasons
    ['limit_turns', 'budget_exhausted', 'steps'],
    ['limitTurns', 'budget_exhausted', 'steps'],
    ['LIMIT-TURNS', 'budget_exhausted', 'steps'],
    ['limit_total_tokens', 'budget_exhausted', 'tokens'],
    ['limit_output_tokens', 'budget_exhausted', 'tokens'],
    ['endTurn', 'model_stopped'],
    ['stop_sequence', 'model_stopped'],
    ['guardrail_intervened', 'cancelled'],
    ['content_filtered', 'cancelled'],
    ['max_tokens', 'hard_error'],
    ['tool_use', 'budget_exhausted', 'steps'],
    // OpenAI Agents SDK exceptions
    ['MaxTurnsExceeded', 'budget_exhausted', 'steps'],
    ['MaxTurnsExceededError', 'budget_exhausted', 'steps'],
    ['agents.exceptions.MaxTurnsExceeded', 'budget_exhausted', 'steps'],
    ['InputGuardrailTripwireTriggered', 'cancelled'],
    ['OutputGuardrailTripwireTriggered', 'cancelled'],
    ['ToolInputGuardrailTripwireTriggered', 'cancelled'],
    ['ModelBehaviorError', 'hard_error'],
    ['UserError', 'hard_error'],
    ['AgentsException', 'hard_error'],
    // LangGraph
    ['GraphRecursionError', 'budget_exhausted', 'steps'],
    ['langgraph.errors.GraphRecursionError', 'budget_exhausted', 'steps'],
    ['GRAPH_RECURSION_LIMIT', 'budget_exhausted', 'steps'],
    ['recursion_limit', 'budget_exhausted', 'steps'],
    ['GraphInterrupt', 'escalated'],
    ['NodeInterrupt', 'escalated'],
    ['InvalidUpdateError', 'hard_error'],
    // guard reason codes (docs/api.md)
    ['repeated_call', 'no_progress'],
    ['repeated_identical_calls', 'no_progress'],
    ['cyclical_loop', 'no_progress'],
    ['no_state_progress', 'no_progress'],
    ['call_limit_exceeded', 'budget_exhausted', 'steps'],
    // proposed OTel gen_ai.agent.finish_reason well-known values
    ['max_iterations', 'budget_exhausted', 'steps'],
    ['time_budget', 'budget_exhausted', 'deadline'],
    ['error', 'hard_error'],
    ['tool_failure', 'hard_error'],
    // provider and SDK finish reasons
    ['stop', 'model_stopped'],
    ['STOP', 'model_stopped'],
    ['length', 'hard_error'],
    ['MAX_TOKENS', 'hard_error'],
    ['content_filter', 'cancelled'],
    ['content-filter', 'cancelled'],
    ['SAFETY', 'cancelled'],
    ['refusal', 'cancelled'],
    ['tool_calls', 'budget_exhausted', 'steps'],
    ['tool-calls', 'budget_exhausted', 'steps'],
    ['unknown', 'unknown'],
    ['FINISH_REASON_UNSPECIFIED', 'unknown'],
    // other budget spellings
    ['max_steps', 'budget_exhausted', 'steps'],
    ['max_usd', 'budget_exhausted', 'cost'],
    ['wall_clock', 'budget_exhausted', 'deadline'],
    ['timeout', 'budget_exhausted', 'deadline'],
    ['TimeoutError', 'budget_exhausted', 'deadline'],
    ['token_budget', 'budget_exhausted', 'tokens'],
    ['token_budget_exceeded', 'budget_exhausted', 'tokens'],
    ['costBudgetExceeded', 'budget_exhausted', 'cost'],
    // unmapped
    ['handoff', 'other'],
    ['weird_custom_reason', 'other'],
  ];
  it.each(rows)('%s → %s %s', (raw, category, kind = null) => {
    expect(classify(raw)).toEqual({ category, kind });
  });
});

describe('classifyExitReason: qualifiers and detail', () => {
  const rows: [raw: string, detail: string | null, kind: BudgetKind | null][] = [
    ['budget_exhausted', null, null],
    ['budget_exhausted', '{"kind":"cost"}', 'cost'],
    ['budget_exhausted', '{"budget":"steps","spent":12,"cap":12}', 'steps'],
    ['budget_exhausted', '{"limit":"max_usd"}', 'cost'],
    ['budget_exhausted', '{"max_usd":2,"spent_usd":2.4}', 'cost'],
    ['budget_exhausted', '{"spent":12,"cap":12}', null],
    ['budget_exhausted', 'ran out of tokens', 'tokens'],
    ['budget_exhausted', '"wall clock"', 'deadline'],
    ['budget_exhausted', '{"kind":"constructor"}', null],
    ['budget_exhausted', '[1,2]', null],
    ['budget_exhausted:cost', null, 'cost'],
    ['budget_exhausted(steps)', '{"kind":"cost"}', 'steps'],
    ['budget_exhausted: deadline', null, 'deadline'],
    ['UsageLimitExceeded: Exceeded the total_tokens_limit of 100', null, 'tokens'],
    ['step_ceiling', '{"kind":"cost"}', 'steps'],
  ];
  it.each(rows)('%s with %s → %s', (raw, detail, kind) => {
    expect(classify(raw, 'attribute', detail)).toEqual({ category: 'budget_exhausted', kind });
  });

  it('reads an exception message after the type', () => {
    expect(classify('GraphRecursionError: Recursion limit of 25 reached', 'exception')).toEqual({
      category: 'budget_exhausted',
      kind: 'steps',
    });
    expect(classify('ValueError: bad input', 'exception').category).toBe('hard_error');
  });

  it('budgetKindFromDetail ignores blank and non-object JSON', () => {
    expect(budgetKindFromDetail(undefined)).toBeNull();
    expect(budgetKindFromDetail('   ')).toBeNull();
    expect(budgetKindFromDetail('42')).toBeNull();
  });
});

describe('classifyExitReason: fallbacks', () => {
  const rows: [
    raw: string | null,
    ended: boolean,
    source: ExitReasonSource | undefined,
    category: ExitCategory,
  ][] = [
    [null, true, undefined, 'unknown'],
    ['  ', true, undefined, 'unknown'],
    [null, false, undefined, 'running'],
    ['', false, undefined, 'running'],
    ['stop', false, 'finish_reason', 'model_stopped'],
    ['SomethingOdd', true, 'attribute', 'other'],
    ['SomethingOdd', true, 'finish_reason', 'other'],
    ['SomethingOddError', true, 'exception', 'hard_error'],
    ['httpx.ReadTimeout', true, 'exception', 'hard_error'],
    ['SomethingOdd', true, 'status', 'hard_error'],
    ['ERROR', true, 'status', 'hard_error'],
    ['STATUS_CODE_ERROR', true, 'status', 'hard_error'],
    ['OK', true, 'status', 'unknown'],
    ['OK', true, 'attribute', 'other'],
    // a name that needs its Error suffix dropped never claims success or "no reason"
    ['StopError', true, 'exception', 'hard_error'],
    ['UnknownError', true, 'exception', 'hard_error'],
    ['CancelledError', true, 'exception', 'cancelled'],
    ['asyncio.exceptions.CancelledError', true, 'exception', 'cancelled'],
  ];
  it.each(rows)('%s (ended %s, %s) → %s', (raw, ended, source, category) => {
    expect(classifyExitReason({ raw, ended, source }).category).toBe(category);
  });

  it('stays linear on long hostile reasons', () => {
    const spaces = ' '.repeat(200_000);
    const started = performance.now();
    for (const raw of [`a${spaces}b`, `a:${spaces}x`, `odd(${spaces})${spaces}x`]) {
      expect(classifyExitReason({ raw, ended: true, detail: raw }).category).toBe('other');
    }
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('only budget exits carry a kind', () => {
    expect(classify('hard_error', undefined, '{"kind":"cost"}').kind).toBeNull();
  });
});

describe('normalizeReason', () => {
  it.each([
    ['limitTurns', 'limitturns'],
    ['limit_turns', 'limitturns'],
    ['LIMIT-TURNS', 'limitturns'],
    ['limit turns', 'limitturns'],
    ['limit.turns', 'limitturns'],
  ])('%s → %s', (raw, key) => {
    expect(normalizeReason(raw)).toBe(key);
  });
});

describe('EXIT_RULES', () => {
  it('names every rule once and maps only to known categories', () => {
    const names = EXIT_RULES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of EXIT_RULES) {
      expect(EXIT_CATEGORIES).toContain(rule.category);
      expect((rule.reasons?.length ?? 0) + (rule.contains?.length ?? 0)).toBeGreaterThan(0);
      if (rule.kind && rule.kind !== 'infer') expect(BUDGET_KINDS).toContain(rule.kind);
    }
  });

  it('lists no exact reason under two rules', () => {
    const seen = new Map<string, string>();
    for (const rule of EXIT_RULES.filter((r) => !r.sources)) {
      for (const reason of rule.reasons ?? []) {
        const key = normalizeReason(reason);
        expect(seen.get(key), `${reason} in ${rule.name}`).toBeUndefined();
        seen.set(key, rule.name);
      }
    }
  });

  it('puts substring rules after every exact rule', () => {
    const firstContains = EXIT_RULES.findIndex((r) => r.contains);
    expect(EXIT_RULES.slice(firstContains).every((r) => r.contains && !r.reasons)).toBe(true);
  });
});

const luminance = (hex: string) => {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
const lab = (hex: string) => {
  const [r = 0, g = 0, b = 0] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)] as const;
};
const deltaE = (a: string, b: string) => {
  const [p, q] = [lab(a), lab(b)];
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
};

describe('EXIT_CATEGORY_META', () => {
  it('describes every category and nothing else', () => {
    expect(Object.keys(EXIT_CATEGORY_META).sort()).toEqual([...EXIT_CATEGORIES].sort());
    expect(EXIT_CATEGORY_META.unknown.description).toMatch(/did not name why it stopped/);
  });

  it.each(EXIT_CATEGORIES)('%s is readable as text on white and on near-black', (category) => {
    const { light, dark } = EXIT_CATEGORY_META[category].color;
    expect(contrast(light, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(dark, '#0a0a0a')).toBeGreaterThanOrEqual(4.5);
  });

  it.each(['light', 'dark'] as const)('%s colours are told apart (CIELAB ΔE ≥ 15)', (mode) => {
    const colours = EXIT_CATEGORIES.map((c) => EXIT_CATEGORY_META[c].color[mode]);
    for (let i = 0; i < colours.length; i++) {
      for (let j = i + 1; j < colours.length; j++) {
        expect(deltaE(colours[i] ?? '', colours[j] ?? '')).toBeGreaterThanOrEqual(15);
      }
    }
  });

  it('claims success only for goal_satisfied and model_stopped', () => {
    expect(EXIT_CATEGORIES.filter(isSuccessClaim)).toEqual(['goal_satisfied', 'model_stopped']);
  });
});

// From the spans of one run to the run and its steps (docs/conventions.md "Runs and steps"): which
// spans are steps, what each step did and spent, and why and whether the run ended.
import type { RunInput } from '../trajectory/derive-run';
import type { ExitReasonSource } from '../trajectory/exit-reason';
import type { PriceTable } from '../trajectory/pricing';
import type { StepInput } from '../trajectory/step';
import type { RunValueProblem, SpanFacts } from '../trajectory/span-facts';
import { addSpend, NO_SPEND, SpanTree } from './span-tree';
import type { Spend, StoredSpan } from './span-tree';
import { assembleSteps } from './assemble-steps';
import { runSearchText } from './search-text';

export interface AssembledStep extends StepInput {
  traceId: string;
  spanId: string;
  name: string;
  startMs: number;
  durationMs: number | null;
  actionArgs: string | null;
  result: string | null;
  verdictFields: Record<string, boolean> | null;
  inputTokens: number;
  outputTokens: number;
  contextTokens: number | null;
}

export interface AssembledRun {
  input: RunInput;
  steps: AssembledStep[];
  rootSpanId: string | null;
  agent: string | null;
  variant: string | null;
  goal: string | null;
  sessionId: string | null;
  tags: string[];
  /** What a runs search matches (derive/search-text.ts). */
  searchText: string;
  escalation: string | null;
  limits: { maxSteps: number | null; maxUsd: number | null; wallClockMs: number | null };
  startedAtMs: number;
  endedAtMs: number | null;
  lastSpanEndMs: number;
  spend: Spend;
  model: string | null;
  unpricedModels: string[];
  spanCount: number;
  /** One LLM or tool call alone in its trace, with nothing of a run about it. */
  fragment: boolean;
  /** Values the spans sent that could not be used as sent: how many, and the first few. */
  valueProblems: { count: number; first: RunValueProblem[] };
}

export interface AssembleOptions {
  /** No span arrived for longer than the idle timeout. */
  idle: boolean;
}

export function assembleRun(
  spans: readonly StoredSpan[],
  prices: PriceTable,
  options: AssembleOptions = { idle: false },
): AssembledRun {
  const tree = new SpanTree(spans, prices);
  const root = findRoot(tree);
  // Run-level attributes: the root first, then other spans without a parent, then everything.
  const runOrder = [
    ...(root ? [root] : []),
    ...tree.spans.filter((s) => s !== root && s.parentSpanId === null),
    ...tree.topLevel.filter((s) => s !== root && s.parentSpanId !== null),
    ...tree.spans,
  ];
  const runFact = <K extends keyof SpanFacts>(k: K): SpanFacts[K] | undefined =>
    runOrder.find((s) => s.facts[k] !== undefined)?.facts[k];

  const end = runEnd(tree, root, options.idle);
  const spend = tree.topLevel.reduce((sum, s) => addSpend(sum, tree.subtreeSpend(s)), NO_SPEND);
  const input: RunInput = {
    ended: end.ended,
    exitReason: end.reason,
    exitDetail: end.detail,
    verified: runFact('verified') ?? null,
    verifiedUnits: runFact('verifiedUnits') ?? null,
    progressDirection: runFact('progressDirection') ?? 'down',
  };

  const steps = assembleSteps(tree);
  const agent = runFact('agent') ?? runFact('serviceName') ?? null;
  const variant = runFact('variant') ?? null;
  const goal = runFact('goal') ?? root?.facts.input ?? runFact('input') ?? null;
  return {
    input,
    steps,
    rootSpanId: root?.spanId ?? null,
    agent,
    variant,
    goal,
    sessionId: runFact('sessionId') ?? null,
    tags: runFact('tags') ?? [],
    searchText: runSearchText({
      goal,
      agent,
      variant,
      actions: steps.map((s) => s.action),
      exitReason: end.reason?.raw ?? null,
      exitDetail: end.detail,
      spans: tree.spans,
    }),
    escalation: runFact('escalation') ?? null,
    limits: {
      maxSteps: runFact('maxSteps') ?? null,
      maxUsd: runFact('maxUsd') ?? null,
      wallClockMs: runFact('wallClockMs') ?? null,
    },
    startedAtMs: tree.spans.reduce((min, s) => Math.min(min, s.startMs), Infinity),
    endedAtMs: end.atMs,
    lastSpanEndMs: lastEndMs(tree.spans),
    spend,
    model: topModel(tree.costByModel),
    unpricedModels: [...tree.unpricedModels].sort(),
    spanCount: tree.spans.length,
    fragment: isFragment(tree, steps.length),
    valueProblems: collectProblems(tree.spans),
  };
}

const RUN_PROBLEMS = 20;

function collectProblems(spans: readonly StoredSpan[]): AssembledRun['valueProblems'] {
  const first: RunValueProblem[] = [];
  let count = 0;
  for (const span of spans) {
    for (const problem of span.facts.problems ?? []) {
      count++;
      if (first.length < RUN_PROBLEMS)
        first.push({ ...problem, spanId: span.spanId, spanName: span.name });
    }
  }
  return { count, first };
}

const RUN_FACTS = ['runId', 'agent', 'variant', 'goal', 'exitReason', 'verified', 'step'] as const;

/**
 * Instrumentation that makes every LLM or tool call its own trace (Traceloop's LangChain
 * instrumentation without an enclosing span) leaves traces that cannot be grouped into runs.
 */
function isFragment(tree: SpanTree, stepCount: number): boolean {
  const [only] = tree.spans;
  if (!only || tree.spans.length !== 1 || stepCount > 1) return false;
  if (only.facts.role !== 'llm' && only.facts.role !== 'tool') return false;
  return RUN_FACTS.every((fact) => only.facts[fact] === undefined);
}

/** The span that carries `loop.exit.reason`, else the span without a parent. */
function findRoot(tree: SpanTree): StoredSpan | null {
  const withReason = tree.spans.filter((s) => s.facts.exitReason !== undefined);
  if (withReason.length > 0) return latestEnding(withReason);
  const parentless = tree.spans.filter((s) => s.parentSpanId === null);
  const agents = parentless.filter((s) => s.facts.role === 'agent');
  return (agents[0] ?? parentless[0]) || null;
}

interface RunEnd {
  ended: boolean;
  atMs: number | null;
  reason: { raw: string; source: ExitReasonSource } | null;
  detail: string | null;
}

function runEnd(tree: SpanTree, root: StoredSpan | null, idle: boolean): RunEnd {
  if (root && root.endMs !== null) {
    return { ended: true, atMs: root.endMs, ...rootReason(tree, root) };
  }
  if (!root) {
    // Some frameworks never export the root when the run throws: the top-most arrived span
    // ends the run if it ended with an exception that names why.
    const top = tree.topLevel[0];
    if (top && top.endMs !== null && top.facts.exceptionType !== undefined) {
      return {
        ended: true,
        atMs: top.endMs,
        reason: { raw: top.facts.exceptionType, source: 'exception' },
        detail: top.facts.exceptionMessage ?? null,
      };
    }
  }
  if (idle) {
    return { ended: true, atMs: lastEndMs(tree.spans), reason: null, detail: null };
  }
  return { ended: false, atMs: null, reason: null, detail: null };
}

function rootReason(tree: SpanTree, root: StoredSpan): Pick<RunEnd, 'reason' | 'detail'> {
  const f = root.facts;
  const detail = f.exitDetail ?? f.exceptionMessage ?? null;
  if (f.exitReason !== undefined)
    return { reason: { raw: f.exitReason, source: 'attribute' }, detail };
  if (f.finishReason !== undefined) {
    return { reason: { raw: f.finishReason, source: 'finish_reason' }, detail };
  }
  if (f.exceptionType !== undefined) {
    return { reason: { raw: f.exceptionType, source: 'exception' }, detail };
  }
  if (root.statusCode === 2) {
    const thrown = latestEnding(tree.spans.filter((s) => s.facts.exceptionType !== undefined));
    if (thrown?.facts.exceptionType !== undefined) {
      return {
        reason: { raw: thrown.facts.exceptionType, source: 'exception' },
        detail: detail ?? thrown.facts.exceptionMessage ?? null,
      };
    }
    return { reason: { raw: root.statusMessage.trim() || 'error', source: 'status' }, detail };
  }
  // A root that names nothing: the model's own last finish reason, if one was recorded.
  const lastCall = latestEnding(
    tree.spans.filter((s) => s !== root && s.facts.finishReason !== undefined),
  );
  if (lastCall?.facts.finishReason !== undefined) {
    return { reason: { raw: lastCall.facts.finishReason, source: 'finish_reason' }, detail };
  }
  return { reason: null, detail };
}

function latestEnding(spans: readonly StoredSpan[]): StoredSpan | null {
  let latest: StoredSpan | null = null;
  for (const span of spans) {
    if (!latest || (span.endMs ?? span.startMs) >= (latest.endMs ?? latest.startMs)) latest = span;
  }
  return latest;
}

function topModel(costByModel: ReadonlyMap<string, number>): string | null {
  let best: string | null = null;
  let bestCost = -1;
  for (const [model, cost] of costByModel) {
    if (cost > bestCost) {
      best = model;
      bestCost = cost;
    }
  }
  return best;
}

function lastEndMs(spans: readonly StoredSpan[]): number {
  return spans.reduce((max, s) => Math.max(max, s.endMs ?? s.startMs), -Infinity);
}

// From the spans of one run to the run and its steps (docs/conventions.md "Runs and steps"): which
// spans are steps, what each step did and spent, and why and whether the run ended.
import type { RunInput } from '../trajectory/derive-run';
import type { PriceTable } from '../trajectory/pricing';
import type { StepInput } from '../trajectory/step';
import type { RunValueProblem, SpanFacts } from '../trajectory/span-facts';
import { addSpend, NO_SPEND, SpanTree } from './span-tree';
import type { Spend, StoredSpan } from './span-tree';
import { assembleSteps } from './assemble-steps';
import { completeToolCalls } from './requested-tools';
import { canonicalActionHash } from '../trajectory/canonical-hash';
import { lastEndMs, latestEnding, runEnd } from './run-exit';
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
  /** The agent's `ignoreArgs`: argument fields left out of action hashes. */
  ignoreArgsFor?: (agent: string | null) => readonly string[];
}

export function assembleRun(
  spans: readonly StoredSpan[],
  prices: PriceTable,
  options: AssembleOptions = { idle: false },
): AssembledRun {
  const completed = completeToolCalls(spans);
  let view = runView(completed, prices);
  const agent = view.runFact('agent') ?? serviceAgent(view.runFact('serviceName'));
  const ignoreArgs = options.ignoreArgsFor?.(agent) ?? [];
  if (ignoreArgs.length > 0) view = runView(withIgnoredArgs(completed, ignoreArgs), prices);
  const { tree, root, runFact } = view;

  const steps = assembleSteps(tree, ignoreArgs);
  const maxSteps = runFact('maxSteps') ?? null;
  const end = runEnd(tree, root, options.idle, {
    lastAction: steps[steps.length - 1]?.action ?? null,
    count: steps.length,
    maxSteps,
  });
  const spend = tree.topLevel.reduce((sum, s) => addSpend(sum, tree.subtreeSpend(s)), NO_SPEND);
  const input: RunInput = {
    ended: end.ended,
    exitReason: end.reason,
    exitDetail: end.detail,
    verified: runFact('verified') ?? null,
    verifiedUnits: runFact('verifiedUnits') ?? null,
    progressDirection: runFact('progressDirection') ?? 'down',
  };

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
      maxSteps,
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

interface RunView {
  tree: SpanTree;
  root: StoredSpan | null;
  runFact: <K extends keyof SpanFacts>(k: K) => SpanFacts[K] | undefined;
}

function runView(spans: readonly StoredSpan[], prices: PriceTable): RunView {
  const tree = new SpanTree(spans, prices);
  const root = findRoot(tree);
  // Run-level attributes: the root first, then other spans without a parent, then everything.
  // Each fact's first value in that order, gathered in one pass the first time one is asked.
  let first: Map<string, unknown> | null = null;
  const gather = () => {
    const found = new Map<string, unknown>();
    const take = (s: StoredSpan) => {
      for (const k in s.facts) {
        const value = s.facts[k as keyof SpanFacts];
        if (value !== undefined && !found.has(k)) found.set(k, value);
      }
    };
    if (root) take(root);
    for (const s of tree.spans) if (s !== root && s.parentSpanId === null) take(s);
    for (const s of tree.topLevel) if (s !== root && s.parentSpanId !== null) take(s);
    for (const s of tree.spans) take(s);
    return found;
  };
  const runFact = <K extends keyof SpanFacts>(k: K): SpanFacts[K] | undefined =>
    (first ??= gather()).get(k) as SpanFacts[K] | undefined;
  return { tree, root, runFact };
}

/**
 * Action hashes again without the agent's `ignoreArgs` fields; a hash the span sent itself
 * (`loop.action.hash`, anything but the hash of its action and arguments) is kept.
 */
function withIgnoredArgs(
  spans: readonly StoredSpan[],
  ignoreArgs: readonly string[],
): StoredSpan[] {
  return spans.map((span) => {
    const { action, actionArgs, actionHash } = span.facts;
    if (action === undefined || actionArgs === undefined || actionHash === undefined) return span;
    if (actionHash !== canonicalActionHash(action, actionArgs)) return span;
    const facts = {
      ...span.facts,
      actionHash: canonicalActionHash(action, actionArgs, ignoreArgs),
    };
    return { ...span, facts };
  });
}

/** `service.name` names the agent, unless it is the SDK's placeholder for a service left unnamed. */
function serviceAgent(service: string | undefined): string | null {
  if (service === undefined || service.startsWith('unknown_service')) return null;
  return service;
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

/** Traceloop's spans for LangChain runnables: `workflow RunnableSequence`, `task ChatPromptTemplate`. */
const RUNNABLE_SPAN = /^(workflow|task) [A-Z]\w*$/;

/**
 * Instrumentation that makes every LLM or tool call its own trace (Traceloop's LangChain
 * instrumentation without an enclosing span) leaves traces that cannot be grouped into runs: a
 * lone model or tool call, or a lone runnable's span, with nothing of a run about it.
 */
function isFragment(tree: SpanTree, stepCount: number): boolean {
  const [only] = tree.spans;
  if (!only || tree.spans.length !== 1 || stepCount > 1) return false;
  const call = only.facts.role === 'llm' || only.facts.role === 'tool';
  if (!call && !RUNNABLE_SPAN.test(only.name)) return false;
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

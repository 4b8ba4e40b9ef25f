// From the spans of one run to the run and its steps (docs/conventions.md "Runs and steps"): which
// spans are steps, what each step did and spent, and why and whether the run ended.
import type { RunInput } from '../trajectory/derive-run';
import type { PriceTable } from '../trajectory/pricing';
import type { StepInput } from '../trajectory/step';
import type { RunValueProblem, SpanFacts } from '../trajectory/span-facts';
import { addSpendTo, NO_SPEND, SpanTree } from './span-tree';
import type { Spend, StoredSpan } from './span-tree';
import { assembleSteps } from './assemble-steps';
import type { StepsMemo } from './assemble-steps';
import { ToolCallRequests } from './requested-tools';
import { canonicalActionHash } from '../trajectory/canonical-hash';
import { runEnd } from './run-exit';
import { runTimes } from './run-times';
import { RunFacts } from './run-facts';
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
  /** The assembly of this run's spans last time, to go on from (run-memo.ts). */
  previous?: Assembly;
  /** Return the assembly, to go on from next time. */
  remember?: boolean;
}

/**
 * The tree and steps made of a run's spans, kept to assemble the run again from them and the
 * spans added since, where that gives what assembling all of them would.
 */
export interface Assembly {
  /** The spans it was made of, as objects: a span stored again is another object. */
  spans: Set<StoredSpan>;
  requests: ToolCallRequests;
  tree: SpanTree;
  facts: RunFacts;
  steps: StepsMemo;
}

/**
 * `spans` are distinct objects (a span stored again is a new one). With `previous`, the spans it
 * holds that are still here are taken as assembled, when the others only add to them.
 */
export function assembleRun(
  spans: readonly StoredSpan[],
  prices: PriceTable,
  options: AssembleOptions = { idle: false },
): AssembledRun & { assembly: Assembly | null } {
  const extended = options.previous ? extend(options.previous, spans, prices) : null;
  const requests = extended ? extended.requests : new ToolCallRequests();
  // Completed here only when the assembly starts afresh: `extend` completed the spans it added.
  const completed = extended ? null : (requests.add(spans) as StoredSpan[]);
  let tree = extended ? extended.tree : new SpanTree(completed ?? [], prices);
  let facts = extended ? extended.facts : new RunFacts(tree);
  const agent = facts.get('agent') ?? serviceAgent(facts.get('serviceName'));
  const ignoreArgs = options.ignoreArgsFor?.(agent) ?? [];
  // Hashes made again are other spans: nothing to go on from next time.
  if (ignoreArgs.length > 0) {
    tree = new SpanTree(withIgnoredArgs(completed ?? tree.spans, ignoreArgs), prices);
    facts = new RunFacts(tree);
  }
  const { root } = facts;
  const runFact = <K extends keyof SpanFacts>(k: K) => facts.get(k);

  const assembledSteps = assembleSteps(
    tree,
    ignoreArgs,
    extended && ignoreArgs.length === 0
      ? { memo: extended.steps, added: extended.added, topLevel: extended.topLevel }
      : undefined,
  );
  const steps = assembledSteps.steps;
  const assembly =
    ignoreArgs.length > 0 || !options.remember
      ? null
      : {
          spans: extended ? extended.spans : new Set(spans),
          requests,
          tree,
          facts,
          steps: assembledSteps.memo,
        };
  const maxSteps = runFact('maxSteps') ?? null;
  const end = runEnd(tree, root, options.idle, {
    lastAction: steps[steps.length - 1]?.action ?? null,
    count: steps.length,
    maxSteps,
  });
  const times = runTimes(tree.spans);
  const spend = { ...NO_SPEND };
  for (const s of tree.topLevel) addSpendTo(spend, tree.subtreeSpend(s));
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
    startedAtMs: times.startedAtMs,
    // Within the trusted spans' times: a root whose own time was set aside ends at the last of them.
    endedAtMs:
      end.atMs === null
        ? null
        : Math.min(Math.max(end.atMs, times.startedAtMs), times.lastSpanEndMs),
    lastSpanEndMs: times.lastSpanEndMs,
    spend,
    model: topModel(tree.costByModel),
    unpricedModels: [...tree.unpricedModels].sort(),
    spanCount: tree.spans.length,
    fragment: isFragment(tree, steps.length),
    valueProblems: collectProblems(tree.spans, times.problems),
    assembly,
  };
}

/**
 * The previous assembly with the spans not in it, when the spans it holds are all still here,
 * and its tool call requests and tree take the others as though made with them.
 */
function extend(
  previous: Assembly,
  spans: readonly StoredSpan[],
  prices: PriceTable,
): (Assembly & { added: StoredSpan[]; topLevel: StoredSpan[] }) | null {
  const fresh = spans.filter((s) => !previous.spans.has(s));
  if (spans.length - fresh.length !== previous.spans.size) return null;
  // Either failing leaves the previous assembly half changed: it is not used again.
  const completed = previous.requests.add(fresh);
  const grown = completed && previous.tree.extend(completed, prices);
  if (!grown) return null;
  for (const span of fresh) previous.spans.add(span);
  previous.facts.extend(previous.tree, grown.added, grown.topLevel);
  return { ...previous, ...grown };
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

function collectProblems(
  spans: readonly StoredSpan[],
  ofTimes: readonly RunValueProblem[],
): AssembledRun['valueProblems'] {
  const first: RunValueProblem[] = ofTimes.slice(0, RUN_PROBLEMS);
  let count = ofTimes.length;
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

// Which spans are the run's steps, and what each step did. The highest tier present decides:
// spans with `loop.step`; else a framework's loop-cycle spans; else each tool call. A candidate
// inside another is part of it, and candidates with the same step number are one step.
import type { AssembledStep } from './assemble-run';
import { canonicalActionHash } from '../trajectory/canonical-hash';
import type { RequestedCall, SpanFacts } from '../trajectory/span-facts';
import { addSpend, NO_SPEND } from './span-tree';
import type { SpanTree, StoredSpan } from './span-tree';
import { parseBoundedJson } from '../trajectory/bounded-json';

type Tier = (span: StoredSpan) => boolean;

const TIERS: readonly Tier[] = [
  (s) => s.facts.role === 'step',
  (s) => s.facts.role === 'cycle' || s.facts.frameworkStep !== undefined,
  (s) => s.facts.role === 'tool',
];

/** Facts the act stage decides: taken from the step, else from the tool calls inside it. */
const ACTION_FACTS = [
  'action',
  'actionArgs',
  'actionHash',
  'polling',
  'result',
  'resultHash',
] as const;
/** Facts the observe and verify stages decide: the step's own, else the latest inside it. */
const OBSERVED_FACTS = [
  'stateHash',
  'progress',
  'verdict',
  'verdictSource',
  'verdictFields',
  'contextTokens',
] as const;

/**
 * What the steps were assembled from, to go on from when spans are added to the tree. Its arrays
 * grow with each extension: callers get copies.
 */
export interface StepsMemo {
  /** The tier of TIERS that decides, -1 while no span is a candidate. */
  tier: number;
  groups: Group[];
  steps: AssembledStep[];
  /** Every group has a step number (and the steps are in number order). */
  numbered: boolean;
  numbers: Set<number>;
  maxNumber: number;
  tools: StoredSpan[];
  /** A step's action is read from the run's tool spans (a request none of them answered). */
  asks: boolean;
  /** Some step span carries tool call ids: tool calls beside the steps attach by them. */
  callIds: boolean;
}

export function assembleSteps(
  tree: SpanTree,
  ignoreArgs: readonly string[] = [],
  from?: { memo: StepsMemo; added: readonly StoredSpan[]; topLevel: readonly StoredSpan[] },
): { steps: AssembledStep[]; memo: StepsMemo } {
  const memo =
    (from && grow(tree, from.memo, from.added, from.topLevel, ignoreArgs)) ??
    (grow(tree, emptyMemo(), tree.spans, tree.topLevel, ignoreArgs) as StepsMemo);
  return { steps: memo.steps.slice(), memo };
}

function emptyMemo(): StepsMemo {
  return {
    tier: -1,
    groups: [],
    steps: [],
    numbered: true,
    numbers: new Set(),
    maxNumber: -Infinity,
    tools: [],
    asks: false,
    callIds: false,
  };
}

/**
 * The memo with the steps of spans just added to the tree (`added`, `top`: its extension), when
 * that leaves every step held as it was: no new span is of a higher tier, none joins a held step
 * by its number, numbered steps stay in number order, a held step's unanswered request cannot be
 * answered by a new tool span, and no tool call beside the steps attaches by call id; else null.
 * From the empty memo with every span, it is the whole assembly.
 */
function grow(
  tree: SpanTree,
  memo: StepsMemo,
  added: readonly StoredSpan[],
  top: readonly StoredSpan[],
  ignoreArgs: readonly string[],
): StepsMemo | null {
  const held = memo.groups.length > 0;
  const newTier = TIERS.findIndex((test) => added.some(test));
  if (memo.tier !== -1 && newTier !== -1 && newTier < memo.tier) return null;
  const tier = memo.tier !== -1 ? memo.tier : newTier;
  const isTool = TIERS[2] as Tier;
  const newTools = added.filter(isTool);
  if (memo.asks && newTools.length > 0) return null;
  if (tier === -1) return memo;

  const candidates = added.filter(TIERS[tier] as Tier);
  const insideCandidate = tree.insideAny(new Set(candidates), top);
  const outermost = candidates.filter((span) => !insideCandidate.has(span));
  const groups = groupByNumber(outermost);
  const numbered = groups.every((g) => g.number !== null);
  if (numbered) groups.sort((a, b) => (a.number ?? 0) - (b.number ?? 0) || a.startMs - b.startMs);
  const callIds = groups.some((g) => g.spans.some((s) => (s.facts.toolCallIds?.length ?? 0) > 0));
  if (held) {
    if (memo.callIds || callIds) return null;
    if (memo.numbered && !numbered) return null;
    if (groups.some((g) => g.number !== null && memo.numbers.has(g.number))) return null;
    const first = groups[0]?.number;
    if (memo.numbered && first !== undefined && first !== null && first <= memo.maxNumber) {
      return null;
    }
  }

  for (const tool of newTools) memo.tools.push(tool);
  const allNumbered = memo.numbered && numbered;
  const uses = { tools: memo.asks };
  const steps = groups.map((group, k) =>
    buildStep(
      tree,
      group.spans,
      allNumbered ? (group.number ?? 0) : memo.groups.length + k + 1,
      memo.tools,
      ignoreArgs,
      uses,
    ),
  );
  if (!held) attachSiblingToolCalls(tree, steps, groups);
  for (const group of groups) {
    memo.groups.push(group);
    if (group.number === null) continue;
    memo.numbers.add(group.number);
    memo.maxNumber = Math.max(memo.maxNumber, group.number);
  }
  for (const step of steps) memo.steps.push(step);
  return {
    ...memo,
    tier,
    numbered: allNumbered,
    asks: uses.tools,
    callIds: memo.callIds || callIds,
  };
}

interface Group {
  number: number | null;
  startMs: number;
  spans: StoredSpan[];
}

function groupByNumber(spans: readonly StoredSpan[]): Group[] {
  const groups: Group[] = [];
  const byNumber = new Map<number, Group>();
  for (const span of spans) {
    const number = span.facts.step ?? span.facts.frameworkStep ?? null;
    const existing = number === null ? undefined : byNumber.get(number);
    if (existing) {
      existing.spans.push(span);
      continue;
    }
    const group = { number, startMs: span.startMs, spans: [span] };
    groups.push(group);
    if (number !== null) byNumber.set(number, group);
  }
  return groups;
}

function buildStep(
  tree: SpanTree,
  spans: readonly StoredSpan[],
  index: number,
  tools: readonly StoredSpan[],
  ignoreArgs: readonly string[],
  uses: { tools: boolean },
): AssembledStep {
  const primary = spans[0] as StoredSpan;
  const inside =
    spans.length === 1 ? tree.descendants(primary) : spans.flatMap((s) => tree.descendants(s));
  const facts: SpanFacts = { role: primary.facts.role };
  // The first span of the lists, in order, that has the fact.
  const assign = <K extends keyof SpanFacts>(k: K, ...from: (readonly StoredSpan[])[]) => {
    for (const list of from) {
      for (const s of list) {
        if (s.facts[k] === undefined) continue;
        facts[k] = s.facts[k];
        return;
      }
    }
  };

  for (const k of ACTION_FACTS) assign(k, spans);
  if (facts.action === undefined && inside.length > 0)
    Object.assign(facts, combinedToolCalls(inside));
  if (facts.action === undefined)
    Object.assign(facts, askedButNotRun([...spans, ...inside], tools, ignoreArgs, uses));
  const latestFirst =
    inside.length < 2
      ? inside
      : [...inside].sort((a, b) => (b.endMs ?? b.startMs) - (a.endMs ?? a.startMs));
  for (const k of OBSERVED_FACTS) assign(k, spans, latestFirst);
  assign(
    'errorClass',
    spans,
    inside.filter((s) => s.facts.role === 'tool'),
    inside,
  );

  const spend = spans.reduce((sum, s) => addSpend(sum, tree.subtreeSpend(s)), NO_SPEND);
  const endMs = spans.reduce<number | null>(
    (max, s) => (s.endMs === null ? max : Math.max(max ?? s.endMs, s.endMs)),
    null,
  );
  return {
    index,
    traceId: primary.traceId,
    spanId: primary.spanId,
    name: primary.name,
    startMs: primary.startMs,
    durationMs: endMs === null ? null : endMs - primary.startMs,
    action: facts.action ?? null,
    actionArgs: facts.actionArgs ?? null,
    actionHash: facts.actionHash ?? null,
    stateHash: facts.stateHash ?? null,
    result: facts.result ?? null,
    resultHash: facts.resultHash ?? null,
    progress: facts.progress ?? null,
    verdict: facts.verdict ?? null,
    verdictSource: facts.verdictSource ?? null,
    verdictFields: facts.verdictFields ?? null,
    errorClass: facts.errorClass ?? null,
    polling: facts.polling ?? false,
    costUsd: spend.costUsd,
    inputTokens: spend.inputTokens,
    outputTokens: spend.outputTokens,
    contextTokens: facts.contextTokens ?? null,
  };
}

/** The tool calls inside a step, as one action: a single call as itself, several joined. */
function combinedToolCalls(inside: readonly StoredSpan[]): Partial<SpanFacts> {
  const calls = inside.filter((s) => s.facts.role === 'tool' && s.facts.action !== undefined);
  const [only] = calls;
  if (!only) return {};
  if (calls.length === 1) {
    const { action, actionArgs, actionHash, polling, result, resultHash } = only.facts;
    return { action, actionArgs, actionHash, polling, result, resultHash };
  }
  return {
    action: calls.map((c) => c.facts.action).join('+'),
    actionArgs: JSON.stringify(calls.map((c) => c.facts.actionArgs ?? null)),
    actionHash: calls.map((c) => c.facts.actionHash ?? '').join('+'),
    result: JSON.stringify(calls.map((c) => c.facts.result ?? null)),
    resultHash: calls.every((c) => c.facts.resultHash === undefined)
      ? undefined
      : calls.map((c) => c.facts.resultHash ?? '').join('+'),
  };
}

/**
 * A step whose model asked for a tool that never ran (it waits for approval, or the run was
 * stopped first): its action is the call asked for, as the latest model call inside recorded it.
 * Without arguments there is no action hash (missing arguments are not equal arguments).
 */
function askedButNotRun(
  spans: readonly StoredSpan[],
  tools: readonly StoredSpan[],
  ignoreArgs: readonly string[],
  uses: { tools: boolean },
): Partial<SpanFacts> {
  if (spans.some((s) => s.facts.role === 'tool')) return {};
  const asking = spans.filter((s) => (s.facts.requestedCalls?.length ?? 0) > 0);
  const latest = asking.reduce<StoredSpan | null>(
    (best, s) => (best === null || s.startMs >= best.startMs ? s : best),
    null,
  );
  if (!latest) return {};
  uses.tools = true;
  // A call some tool span answers ran (in a later step, where a framework runs tools apart).
  const ran = (call: RequestedCall) =>
    tools.some(
      (t) =>
        (call.id !== undefined && (t.facts.toolCallIds ?? []).includes(call.id)) ||
        (t.facts.action === call.name && t.startMs >= latest.startMs),
    );
  const calls = (latest.facts.requestedCalls ?? []).filter((call) => !ran(call));
  const [only] = calls;
  if (!only) return {};
  if (calls.length === 1) {
    return {
      action: only.name,
      actionArgs: only.args,
      actionHash:
        only.args === undefined ? undefined : canonicalActionHash(only.name, only.args, ignoreArgs),
    };
  }
  const args = calls.map((c) => (c.args === undefined ? null : (parseArgs(c.args) ?? c.args)));
  const complete = calls.every((c) => c.args !== undefined);
  return {
    action: calls.map((c) => c.name).join('+'),
    actionArgs: JSON.stringify(args),
    actionHash: complete
      ? calls.map((c) => canonicalActionHash(c.name, c.args ?? null, ignoreArgs)).join('+')
      : undefined,
  };
}

function parseArgs(text: string): unknown {
  const parsed = parseBoundedJson(text);
  return parsed.ok ? parsed.value : null;
}

/**
 * Where a framework runs tools beside the model call rather than inside it (Vercel AI SDK v6:
 * `ai.toolCall` is a sibling of `ai.generateText.doGenerate`), the call ids tie them together.
 */
function attachSiblingToolCalls(
  tree: SpanTree,
  steps: AssembledStep[],
  groups: readonly Group[],
): void {
  const stepByCallId = new Map<string, number>();
  groups.forEach((group, k) => {
    for (const span of group.spans)
      for (const id of span.facts.toolCallIds ?? []) stepByCallId.set(id, k);
  });
  if (stepByCallId.size === 0) return;
  const stepSpans = new Set(groups.flatMap((g) => g.spans));
  const insideStep = tree.insideAny(stepSpans);
  for (const span of tree.spans) {
    if (span.facts.role !== 'tool' || stepSpans.has(span)) continue;
    if (insideStep.has(span)) continue; // already part of its step
    const k = (span.facts.toolCallIds ?? [])
      .map((id) => stepByCallId.get(id))
      .find((v) => v !== undefined);
    const step = k === undefined ? undefined : steps[k];
    if (!step) continue;
    const spend = tree.subtreeSpend(span);
    step.costUsd += spend.costUsd;
    step.inputTokens += spend.inputTokens;
    step.outputTokens += spend.outputTokens;
    step.result ??= span.facts.result ?? null;
    step.resultHash ??= span.facts.resultHash ?? null;
    step.errorClass ??= span.facts.errorClass ?? null;
  }
}

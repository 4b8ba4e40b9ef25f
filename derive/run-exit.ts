// When and why a run ended (docs/conventions.md, "Where the reason hides"). The root's own
// `loop.exit.reason` first; then a reason named anywhere in the run (the root's exception, a
// GraphInterrupt on a tool span, a tripped guardrail, a framework's limit in a child's status),
// which beats any guess; then the root's own finish reason, exception or status; and last a guess
// from the model's last finish reason, made only where it can be right.
import { classifyExitReason, isToolCallFinish, stopsTheRun } from '../trajectory/exit-reason';
import type { ExitReasonSource } from '../trajectory/exit-reason';
import { reasonNamedInText } from '../trajectory/reason-names';
import type { SpanTree, StoredSpan } from './span-tree';

export interface RunEnd {
  ended: boolean;
  atMs: number | null;
  reason: { raw: string; source: ExitReasonSource } | null;
  detail: string | null;
}

type Reason = { raw: string; source: ExitReasonSource; detail: string | null };

/** What the steps say, for a run that names no reason: its last action and how many there were. */
export interface StepsSeen {
  lastAction: string | null;
  count: number;
  maxSteps: number | null;
}

export function runEnd(
  tree: SpanTree,
  root: StoredSpan | null,
  idle: boolean,
  steps: StepsSeen,
): RunEnd {
  if (root && root.endMs !== null) {
    const found = rootReason(tree, root) ?? fromSteps(steps);
    return {
      ended: true,
      atMs: root.endMs,
      reason: found && { raw: found.raw, source: found.source },
      detail: root.facts.exitDetail ?? root.facts.exceptionMessage ?? found?.detail ?? null,
    };
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

function rootReason(tree: SpanTree, root: StoredSpan): Reason | null {
  const f = root.facts;
  if (f.exitReason !== undefined) return { raw: f.exitReason, source: 'attribute', detail: null };
  const named = namedStop(root) ?? namedStopBelow(tree, root);
  if (named) return named;
  if (f.finishReason !== undefined && !isToolCallFinish(f.finishReason)) {
    return { raw: f.finishReason, source: 'finish_reason', detail: null };
  }
  if (f.exceptionType !== undefined) {
    return { raw: f.exceptionType, source: 'exception', detail: null };
  }
  if (root.statusCode === 2) {
    const thrown = latestEnding(tree.spans.filter((s) => s.facts.exceptionType !== undefined));
    if (thrown?.facts.exceptionType !== undefined) {
      return {
        raw: thrown.facts.exceptionType,
        source: 'exception',
        detail: thrown.facts.exceptionMessage ?? null,
      };
    }
    return { raw: root.statusMessage.trim() || 'error', source: 'status', detail: null };
  }
  // smolagents ends a run by calling its `final_answer` tool, and records no finish reason.
  if (lastStepAnswers(tree)) return { raw: 'final_answer', source: 'finish_reason', detail: null };
  return guessFromLastCall(tree, root);
}

function lastStepAnswers(tree: SpanTree): boolean {
  const lastTool = latestEnding(tree.spans.filter((s) => s.facts.role === 'tool'));
  return lastTool?.facts.action === 'final_answer';
}

/** A run that names nothing but ran the steps its declared limit allows hit that limit. */
function fromSteps(steps: StepsSeen): Reason | null {
  if (steps.maxSteps === null || steps.count < steps.maxSteps) return null;
  if (steps.lastAction === 'final_answer') return null;
  return { raw: 'max_steps', source: 'attribute', detail: null };
}

/** The reasons one span names, in order of trust. */
function namedReasons(span: StoredSpan): Reason[] {
  const f = span.facts;
  const reasons: Reason[] = [];
  if (f.namedReason !== undefined) {
    reasons.push({ raw: f.namedReason, source: 'attribute', detail: null });
  }
  if (f.exceptionType !== undefined) {
    reasons.push({ raw: f.exceptionType, source: 'exception', detail: f.exceptionMessage ?? null });
  }
  const status = span.statusCode === 2 ? span.statusMessage.trim() : '';
  if (status !== '') {
    reasons.push({ raw: reasonNamedInText(status) ?? status, source: 'status', detail: status });
  }
  return reasons;
}

function namedStop(span: StoredSpan): Reason | null {
  for (const reason of namedReasons(span)) {
    if (stopsTheRun(classifyExitReason({ ...reason, ended: true }))) return reason;
  }
  return null;
}

/** A stop named below the root: the latest-ending span that names one. */
function namedStopBelow(tree: SpanTree, root: StoredSpan): Reason | null {
  const byEnd = tree.spans
    .filter((s) => s !== root)
    .sort((a, b) => (b.endMs ?? b.startMs) - (a.endMs ?? a.startMs));
  for (const span of byEnd) {
    const found = namedStop(span);
    if (found) return found;
  }
  return null;
}

/**
 * A root that names nothing: the model's own last finish reason, when it can be the run's. Not
 * when a later model call recorded none (Google ADK exports the call its limit refused empty),
 * and a request for a tool is a step limit only if the tool then ran: a tool that never ran was
 * stopped by something the spans do not name (an approval), so the run says it does not know.
 */
function guessFromLastCall(tree: SpanTree, root: StoredSpan): Reason | null {
  const candidates = [
    ...tree.spans.filter((s) => s !== root && s.facts.finishReason !== undefined),
  ];
  if (root.facts.finishReason !== undefined) candidates.push(root);
  const lastCall = latestEnding(candidates);
  const reason = lastCall?.facts.finishReason;
  if (!lastCall || reason === undefined) return null;
  const aboveLastCall = tree.ancestors(lastCall);
  const laterSilentCall = tree.spans.some(
    (s) =>
      s.facts.role === 'llm' &&
      s.facts.finishReason === undefined &&
      s.startMs > lastCall.startMs &&
      !aboveLastCall.has(s),
  );
  if (laterSilentCall) return null;
  if (isToolCallFinish(reason)) {
    const toolRan = tree.spans.some(
      (s) => s.facts.role === 'tool' && s.startMs >= lastCall.startMs,
    );
    if (!toolRan) return null;
  }
  return { raw: reason, source: 'finish_reason', detail: null };
}

export function latestEnding(spans: readonly StoredSpan[]): StoredSpan | null {
  let latest: StoredSpan | null = null;
  for (const span of spans) {
    if (!latest || (span.endMs ?? span.startMs) >= (latest.endMs ?? latest.startMs)) latest = span;
  }
  return latest;
}

export function lastEndMs(spans: readonly StoredSpan[]): number {
  return spans.reduce((max, s) => Math.max(max, s.endMs ?? s.startMs), -Infinity);
}

// What the conventions read from one span, computed once at ingest and stored beside the raw
// span, so deriving a run never re-reads raw attributes. Absent facts are left out (not null) so
// a later copy of the span can complete an earlier one by a plain JSON merge.
import { canonicalActionHash } from '../trajectory/canonical-hash';
import { canonicalResultHash } from '../trajectory/result-hash';
import type { SpanFacts, SpanRole } from '../trajectory/span-facts';
import { isVerdict, isVerdictSource } from '../trajectory/step';
import { getOwn, isRecord, parseJson, readBoolean, readString, readStructured } from './attributes';
import { readErrorClass } from './error-class';
import { readExitFacts } from './exit-facts';
import type { OtlpEvent, Attributes } from './otlp/types';
import { classifySpanRole } from './span-role';
import { readUsage } from './usage';
import { BOUNDS, checkNumber, readBoundedNumber, recordProblem } from './value-bounds';
import type { ValueProblem } from './value-bounds';

export type { SpanFacts };

export interface FactsInput {
  name: string;
  attributes: Attributes;
  events: OtlpEvent[];
  statusCode: number;
  statusMessage: string;
  resource: Attributes;
  /** Problems validation already found (times out of order). */
  problems?: readonly ValueProblem[];
}

export function extractSpanFacts(span: FactsInput): SpanFacts {
  const a = span.attributes;
  const role = classifySpanRole(span);
  const facts: SpanFacts = { role };
  const set = <K extends keyof SpanFacts>(key: K, value: SpanFacts[K] | null | undefined) => {
    if (value !== null && value !== undefined) facts[key] = value;
  };
  const problems: ValueProblem[] = [...(span.problems ?? [])];
  const num = (bound: keyof typeof BOUNDS, ...keys: string[]) =>
    readBoundedNumber(a, keys, BOUNDS[bound], problems);

  set('runId', readString(a, 'loop.run.id'));
  set('step', num('stepNumber', 'loop.step'));
  set('frameworkStep', readLangGraphStep(a, problems));
  set('agent', readString(a, 'loop.agent', 'gen_ai.agent.name'));
  set('variant', readString(a, 'loop.variant'));
  set('goal', readString(a, 'loop.goal'));
  set('sessionId', readString(a, 'loop.session.id', 'session.id', 'gen_ai.conversation.id'));
  set('tags', readTags(a));
  set('serviceName', readString(span.resource, 'service.name'));
  set('escalation', readString(a, 'loop.escalation'));
  set('maxSteps', num('limit', 'loop.limits.max_steps'));
  set('maxUsd', num('limit', 'loop.limits.max_usd'));
  set('wallClockMs', num('limit', 'loop.limits.wall_clock_ms'));
  const direction = readString(a, 'loop.progress.direction')?.trim().toLowerCase();
  set('progressDirection', direction === 'up' || direction === 'down' ? direction : null);
  const verified = readBoolean(a, 'loop.verified');
  set('verified', verified);
  set('verifiedUnits', num('units', 'loop.verified_units'));
  if (role === 'agent' || role === 'chain' || role === 'other') set('input', readInput(a));

  const exit = readExitFacts(span);
  set('exitReason', exit.exitReason);
  set('exitDetail', exit.exitDetail);
  set('finishReason', exit.finishReason);
  set('exceptionType', exit.exceptionType);
  set('exceptionMessage', exit.exceptionMessage);

  readAction(span, role, facts);
  set('stateHash', readString(a, 'loop.state.hash'));
  set('progress', num('progress', 'loop.progress'));
  const verdict = readString(a, 'loop.verdict')?.trim().toLowerCase();
  if (isVerdict(verdict)) {
    facts.verdict = verdict;
    const source = readString(a, 'loop.verdict.source')?.trim().toLowerCase();
    facts.verdictSource = isVerdictSource(source) ? source : 'self';
  }
  set('verdictFields', readVerdictFields(readStructured(a, 'loop.verdict.fields')));
  set(
    'errorClass',
    readErrorClass(a, { code: span.statusCode, message: span.statusMessage }, exit.exceptionType),
  );
  set('contextTokens', num('tokens', 'loop.context_tokens'));
  set('costUsd', num('usd', 'loop.cost_usd'));

  const usage = readUsage(a, problems);
  set('inputTokens', usage.inputTokens);
  set('outputTokens', usage.outputTokens);
  set('cacheReadTokens', usage.cacheReadTokens);
  set('model', usage.model);
  if (problems.length > 0) facts.problems = problems;
  return facts;
}

const MAX_TAGS = 50;
const MAX_TAG_LENGTH = 200;

/** `loop.tags` (else `tag.tags`): a string array, JSON text of one, or comma-separated text. */
function readTags(a: Attributes): string[] | null {
  const value = readStructured(a, 'loop.tags', 'tag.tags');
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  const tags = new Set<string>();
  for (const item of raw) {
    if (typeof item !== 'string' && typeof item !== 'number') continue;
    const tag = String(item).trim().slice(0, MAX_TAG_LENGTH);
    if (tag !== '') tags.add(tag);
    if (tags.size === MAX_TAGS) break;
  }
  return tags.size > 0 ? [...tags] : null;
}

function readLangGraphStep(a: Attributes, problems: ValueProblem[]): number | null {
  const keys = [
    'langgraph.step',
    'metadata.langgraph_step',
    'traceloop.association.properties.langgraph_step',
  ];
  const direct = readBoundedNumber(a, keys, BOUNDS.stepNumber, problems);
  if (direct !== null || keys.some((k) => Object.hasOwn(a, k))) return direct;
  const step = getOwn(readStructured(a, 'metadata'), 'langgraph_step');
  if (step === undefined || step === null) return null;
  const checked = typeof step === 'number' ? checkNumber(step, BOUNDS.stepNumber) : 'not a number';
  if (typeof checked === 'number') return checked;
  recordProblem(problems, {
    key: 'metadata.langgraph_step',
    value: JSON.stringify(step).slice(0, 80),
    problem: checked,
  });
  return null;
}

function readInput(a: Attributes): string | null {
  const direct = readString(
    a,
    'gen_ai.prompt',
    'ai.prompt',
    'traceloop.entity.input',
    'input.value',
  );
  const messages = readStructured(a, 'gen_ai.input.messages');
  const fromMessages = Array.isArray(messages) ? firstUserText(messages) : null;
  return fromMessages ?? (direct === null ? null : (promptText(parseJson(direct)) ?? direct));
}

/** The first user message's text in the message shapes exporters send. */
function firstUserText(messages: unknown[]): string | null {
  for (const message of messages) {
    if (getOwn(message, 'role') !== 'user') continue;
    const text = promptText(getOwn(message, 'content') ?? getOwn(message, 'parts'));
    if (text) return text;
  }
  return null;
}

function promptText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const user = firstUserText(value);
    if (user) return user;
    const texts = value.map((part) =>
      typeof part === 'string' ? part : (getOwn(part, 'text') ?? getOwn(part, 'content')),
    );
    const joined = texts.filter((t): t is string => typeof t === 'string').join('\n');
    return joined || null;
  }
  if (isRecord(value)) {
    for (const key of ['messages', 'input', 'prompt', 'query', 'task', 'content']) {
      const text = promptText(value[key]);
      if (text) return text;
    }
  }
  return null;
}

function readVerdictFields(value: unknown): Record<string, boolean> | null {
  if (!isRecord(value)) return null;
  const fields: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
  let any = false;
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === 'boolean') {
      fields[key] = field;
      any = true;
    }
  }
  return any ? fields : null;
}

function readAction(span: FactsInput, role: SpanRole, facts: SpanFacts): void {
  const a = span.attributes;
  const toolEvents = span.events.filter((e) => e.name === 'gen_ai.tool.message');
  const choiceEvents = span.events.filter((e) => e.name === 'gen_ai.choice');
  let action = readString(a, 'loop.action', 'gen_ai.tool.name', 'tool.name', 'ai.toolCall.name');
  let args = readString(
    a,
    'loop.action.args',
    'gen_ai.tool.call.arguments',
    'ai.toolCall.args',
    'ai.toolCall.input',
    ...(role === 'tool' ? ['traceloop.entity.input', 'input.value'] : []),
  );
  // Strands' default semconv carries tool input and output as events, not attributes.
  if (args === null && role === 'tool' && toolEvents[0]) {
    args = readString(toolEvents[0].attributes, 'content', 'message');
  }
  let result = readString(
    a,
    'gen_ai.tool.call.result',
    'ai.toolCall.result',
    'ai.toolCall.output',
    ...(role === 'tool' ? ['traceloop.entity.output', 'output.value'] : []),
  );
  if (result === null && role === 'tool' && choiceEvents[0]) {
    result = readString(choiceEvents[0].attributes, 'message', 'content');
  }
  if (action === null && role === 'tool')
    action = span.name.replace(/^execute_tool\s+/, '') || null;

  const callId = readString(a, 'gen_ai.tool.call.id', 'ai.toolCall.id', 'tool_call.id');
  const requested = action === null ? readRequestedToolCalls(a) : null;
  if (requested) {
    action = requested.names.join('+');
    args = requested.args;
    facts.toolCallIds = requested.ids;
  } else if (callId !== null) {
    facts.toolCallIds = [callId];
  }

  if (action !== null) facts.action = action;
  if (args !== null) facts.actionArgs = args;
  const explicitHash = readString(a, 'loop.action.hash');
  if (explicitHash !== null) facts.actionHash = explicitHash;
  else if (action !== null) facts.actionHash = canonicalActionHash(action, args);
  if (result !== null) facts.result = result;
  const resultHash = readString(a, 'loop.result.hash') ?? canonicalResultHash(result);
  if (resultHash !== null) facts.resultHash = resultHash;
}

/** Tool calls a model asked for (Vercel AI SDK `ai.response.toolCalls`), as one action. */
function readRequestedToolCalls(
  a: Attributes,
): { names: string[]; args: string; ids: string[] } | null {
  const calls = readStructured(a, 'ai.response.toolCalls');
  if (!Array.isArray(calls) || calls.length === 0) return null;
  const names: string[] = [];
  const argsList: unknown[] = [];
  const ids: string[] = [];
  for (const call of calls) {
    const name = getOwn(call, 'toolName');
    if (typeof name !== 'string') continue;
    names.push(name);
    const args = getOwn(call, 'args') ?? getOwn(call, 'input');
    argsList.push(typeof args === 'string' ? parseJson(args) : (args ?? null));
    const id = getOwn(call, 'toolCallId');
    if (typeof id === 'string') ids.push(id);
  }
  if (names.length === 0) return null;
  return { names, args: JSON.stringify(argsList.length === 1 ? argsList[0] : argsList), ids };
}

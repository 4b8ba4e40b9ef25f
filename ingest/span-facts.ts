// What the conventions read from one span, computed once at ingest and stored beside the raw
// span, so deriving a run never re-reads raw attributes. Absent facts are left out (not null) so
// a later copy of the span can complete an earlier one by a plain JSON merge.
import { canonicalActionHash } from '../trajectory/canonical-hash';
import { keyTextOrNull } from '../trajectory/key-text';
import { canonicalResultHash } from '../trajectory/result-hash';
import type { SpanFacts, SpanRole } from '../trajectory/span-facts';
import { isVerdict, isVerdictSource } from '../trajectory/step';
import { getOwn, isRecord, parseJson, readBoolean, readString, readStructured } from './attributes';
import { readErrorClass } from './error-class';
import { readExitFacts } from './exit-facts';
import { pythonLiteralToJson } from './python-literal';
import { readReportedFailures, readRequestedCalls } from './requested-calls';
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

/** The run a span names (`loop.run.id`); its trace's run until then is the trace id. */
export function namedRunId(attributes: Attributes): string | null {
  return keyTextOrNull(readString(attributes, 'loop.run.id'));
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

  set('runId', namedRunId(a));
  set('step', num('stepNumber', 'loop.step'));
  set('frameworkStep', readLangGraphStep(a, problems));
  // Names that rows are keyed and indexed by are kept to an index entry's size (key-text.ts).
  set('agent', keyTextOrNull(readAgentName(span, role)));
  set('variant', keyTextOrNull(readString(a, 'loop.variant')));
  set('goal', readString(a, 'loop.goal'));
  set(
    'sessionId',
    keyTextOrNull(readString(a, 'loop.session.id', 'session.id', 'gen_ai.conversation.id')),
  );
  set('tags', readTags(a));
  set('serviceName', keyTextOrNull(readString(span.resource, 'service.name')));
  set('escalation', readString(a, 'loop.escalation'));
  set('maxSteps', num('limit', 'loop.limits.max_steps', 'smolagents.max_steps'));
  set('maxUsd', num('limit', 'loop.limits.max_usd'));
  set('wallClockMs', num('limit', 'loop.limits.wall_clock_ms'));
  const direction = readString(a, 'loop.progress.direction')?.trim().toLowerCase();
  set('progressDirection', direction === 'up' || direction === 'down' ? direction : null);
  const verified = readBoolean(a, 'loop.verified');
  set('verified', verified);
  set('verifiedUnits', num('units', 'loop.verified_units'));
  if (role === 'agent' || role === 'chain' || role === 'other') set('input', readInput(a));

  const requested = role === 'tool' ? [] : readRequestedCalls(span);
  if (requested.length > 0) facts.requestedCalls = requested;
  const failures = role === 'tool' ? [] : readReportedFailures(a);
  if (failures.length > 0) facts.reportedFailures = failures;
  const exit = readExitFacts(span);
  set('exitReason', exit.exitReason);
  set('exitDetail', exit.exitDetail);
  set('finishReason', exit.finishReason);
  set('exceptionType', exit.exceptionType);
  set('exceptionMessage', exit.exceptionMessage);
  set('namedReason', exit.namedReason);

  readAction(span, role, facts);
  set('polling', readBoolean(a, 'loop.action.polling'));
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
  set('model', keyTextOrNull(usage.model));
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
  // `__start__` only writes the graph's input: it is no step of the loop.
  if (langGraphNode(a) === '__start__') return null;
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

function langGraphNode(a: Attributes): string | null {
  const node =
    readString(
      a,
      'langgraph.node',
      'metadata.langgraph_node',
      'traceloop.association.properties.langgraph_node',
    ) ?? getOwn(readStructured(a, 'metadata'), 'langgraph_node');
  return typeof node === 'string' ? node : null;
}

/** The name OpenAI Agents gives a run's trace (its root AGENT span) when given none. */
const DEFAULT_WORKFLOW_NAMES = new Set(['Agent workflow']);

/** Names a LangGraph graph gets when its author gave it none. */
const DEFAULT_GRAPH_NAMES = new Set(['LangGraph', 'CompiledStateGraph', 'RunnableSequence']);

/**
 * The agent's name where frameworks put it: `loop.agent`, OTel GenAI's `gen_ai.agent.name`,
 * OpenInference `agent.name` (an AGENT span's own name and `graph.node.id` otherwise), Mastra
 * `gen_ai.agent.id` / `agent.id`, the AI SDK's `ai.telemetry.functionId`, and a LangGraph graph's
 * name on its root CHAIN span (`createReactAgent({ name })`).
 */
function readAgentName(span: FactsInput, role: SpanRole): string | null {
  const a = span.attributes;
  const named = readString(
    a,
    'loop.agent',
    'gen_ai.agent.name',
    'agent.name',
    'gen_ai.agent.id',
    'agent.id',
    'ai.telemetry.functionId',
  );
  if (named !== null) return named;
  const kind = readString(a, 'openinference.span.kind')?.toLowerCase();
  if (kind === 'agent') {
    const name = span.name.trim();
    return (
      readString(a, 'graph.node.id') ?? (DEFAULT_WORKFLOW_NAMES.has(name) ? null : name || null)
    );
  }
  const metadata = readStructured(a, 'metadata');
  const isGraph =
    kind === 'chain' &&
    getOwn(metadata, 'ls_integration') === 'langgraph' &&
    getOwn(metadata, 'langgraph_step') === undefined;
  if (isGraph && role === 'chain' && !DEFAULT_GRAPH_NAMES.has(span.name.trim()))
    return span.name.trim() || null;
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
    'gen_ai.tool.input', // Mastra
    'gcp.vertex.agent.tool_call_args', // Google ADK
    ...(role === 'tool' ? ['input.value', 'input'] : []),
  );
  if (args === null && role === 'tool') args = traceloopArgs(a);
  if (args !== null && typeof parseJson(args) === 'string')
    args = pythonLiteralToJson(args) ?? args;
  // Strands' default semconv carries tool input and output as events, not attributes.
  if (args === null && role === 'tool' && toolEvents[0]) {
    args = readString(toolEvents[0].attributes, 'content', 'message');
  }
  let result = readString(
    a,
    'gen_ai.tool.call.result',
    'ai.toolCall.result',
    'ai.toolCall.output',
    'gen_ai.tool.output', // Mastra
    'gcp.vertex.agent.tool_response', // Google ADK
    ...(role === 'tool' ? ['traceloop.entity.output', 'output.value', 'output'] : []),
  );
  if (result === null && role === 'tool' && choiceEvents[0]) {
    result = readString(choiceEvents[0].attributes, 'message', 'content');
  }
  if (action === null && role === 'tool')
    action = traceloopToolName(a) ?? toolNameFromSpan(span.name);

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
  // A tool call whose arguments were not recorded is not the same action as another such call.
  else if (action !== null && (args !== null || role !== 'tool'))
    facts.actionHash = canonicalActionHash(action, args);
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

/** LangChain tool classes Traceloop names its tool spans after, when the tool's own name is elsewhere. */
const TOOL_CLASSES = new Set(['DynamicStructuredTool', 'DynamicTool', 'StructuredTool', 'Tool']);

/** The tool's name from its span name, unless that is only a tool class (derive finds it then). */
function toolNameFromSpan(name: string): string | null {
  const tool = name.replace(/^(execute_tool|tool\.execute)\s+/, '').trim();
  return tool === '' || TOOL_CLASSES.has(tool) ? null : tool;
}

/** Traceloop's LangChain tool span: the ToolMessage it returned names the tool (`kwargs.name`). */
function traceloopToolName(a: Attributes): string | null {
  const output = readStructured(a, 'traceloop.entity.output');
  const name = getOwn(getOwn(output, 'kwargs'), 'name') ?? getOwn(output, 'name');
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
}

/** Traceloop's LangChain tool input: `{"args":["{\"path\":\"README.md\"}"]}`, the call's own JSON. */
function traceloopArgs(a: Attributes): string | null {
  const text = readString(a, 'traceloop.entity.input');
  if (text === null) return null;
  const input = parseJson(text);
  const args = getOwn(input, 'args');
  if (Array.isArray(args) && args.length === 1) {
    const [only] = args;
    return typeof only === 'string' ? only : JSON.stringify(only);
  }
  return text;
}

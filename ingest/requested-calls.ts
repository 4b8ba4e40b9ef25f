// The tool calls a model call asked for, in every shape frameworks record them. They name the
// action of a step whose tool never ran (an approval stop) and give a tool span the arguments it
// lacks (Google ADK records none on a failed tool): docs/conventions.md, "Attributes read".
import type { RequestedCall } from '../trajectory/span-facts';
import type { ErrorClass } from '../trajectory/step';
import { getOwn, isRecord, readStructured } from './attributes';
import { readErrorClass } from './error-class';
import type { Attributes, OtlpEvent } from './otlp/types';

const MAX_CALLS = 64;

export function readRequestedCalls(span: {
  attributes: Attributes;
  events: OtlpEvent[];
}): RequestedCall[] {
  const a = span.attributes;
  const found: RequestedCall[] = [
    ...fromVercel(readStructured(a, 'ai.response.toolCalls')),
    ...fromGenAiMessages(readStructured(a, 'gen_ai.output.messages')),
    ...fromOpenInference(a),
    ...fromAdk(readStructured(a, 'gcp.vertex.agent.llm_response')),
    ...fromResponses(readStructured(a, 'output.value')),
    ...fromLangChainOutput(readStructured(a, 'traceloop.entity.output')),
  ];
  for (const event of span.events) {
    if (event.name === 'gen_ai.client.inference.operation.details') {
      found.push(...fromGenAiMessages(readStructured(event.attributes, 'gen_ai.output.messages')));
    } else if (event.name === 'gen_ai.choice') {
      found.push(...fromContentBlocks(readStructured(event.attributes, 'message')));
    }
  }
  return dedupe(found).slice(0, MAX_CALLS);
}

function call(name: unknown, args: unknown, id: unknown): RequestedCall | null {
  if (typeof name !== 'string' || name.trim() === '') return null;
  const out: RequestedCall = { name: name.trim() };
  if (args !== undefined && args !== null)
    out.args = typeof args === 'string' ? args : JSON.stringify(args);
  if (typeof id === 'string' && id !== '') out.id = id;
  return out;
}

const present = (c: RequestedCall | null): c is RequestedCall => c !== null;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Vercel AI SDK `ai.response.toolCalls`: [{toolCallId, toolName, args | input}]. */
function fromVercel(value: unknown): RequestedCall[] {
  return list(value)
    .map((c) =>
      call(getOwn(c, 'toolName'), getOwn(c, 'args') ?? getOwn(c, 'input'), getOwn(c, 'toolCallId')),
    )
    .filter(present);
}

/** OTel GenAI latest: [{role, parts: [{type: 'tool_call', name, id, arguments}]}]. */
function fromGenAiMessages(value: unknown): RequestedCall[] {
  return list(value).flatMap((message) =>
    list(getOwn(message, 'parts'))
      .filter((part) => getOwn(part, 'type') === 'tool_call')
      .map((part) => call(getOwn(part, 'name'), getOwn(part, 'arguments'), getOwn(part, 'id')))
      .filter(present),
  );
}

const OI_CALL = /^llm\.output_messages\.(\d+)\.message\.tool_calls\.(\d+)\.tool_call\.(.+)$/;

/** OpenInference, flattened: `llm.output_messages.0.message.tool_calls.0.tool_call.function.name`. */
function fromOpenInference(a: Attributes): RequestedCall[] {
  const calls = new Map<string, { name?: unknown; args?: unknown; id?: unknown }>();
  for (const key of Object.keys(a)) {
    const match = OI_CALL.exec(key);
    if (!match) continue;
    const slot = `${match[1]}.${match[2]}`;
    const entry = calls.get(slot) ?? {};
    if (match[3] === 'function.name') entry.name = a[key];
    else if (match[3] === 'function.arguments') entry.args = a[key];
    else if (match[3] === 'id') entry.id = a[key];
    calls.set(slot, entry);
  }
  return [...calls.entries()]
    .sort(([x], [y]) => x.localeCompare(y, 'en', { numeric: true }))
    .map(([, c]) => call(c.name, c.args, c.id))
    .filter(present);
}

/** Google ADK `gcp.vertex.agent.llm_response`: {content: {parts: [{functionCall: {id, name, args}}]}}. */
function fromAdk(value: unknown): RequestedCall[] {
  return list(getOwn(getOwn(value, 'content'), 'parts'))
    .map((part) => getOwn(part, 'functionCall'))
    .map((fc) => call(getOwn(fc, 'name'), getOwn(fc, 'args'), getOwn(fc, 'id')))
    .filter(present);
}

/** OpenAI Responses (OpenAI Agents Python): output.value {output: [{type: 'function_call', ...}]}. */
function fromResponses(value: unknown): RequestedCall[] {
  return list(getOwn(value, 'output'))
    .filter((item) => getOwn(item, 'type') === 'function_call')
    .map((item) =>
      call(
        getOwn(item, 'name'),
        getOwn(item, 'arguments'),
        getOwn(item, 'call_id') ?? getOwn(item, 'id'),
      ),
    )
    .filter(present);
}

/** Strands default semconv `gen_ai.choice` message: [{type: 'toolUse', name, toolUseId, input}]. */
function fromContentBlocks(value: unknown): RequestedCall[] {
  return list(value)
    .map((block) => {
      const nested = getOwn(block, 'toolUse');
      if (isRecord(nested)) return call(nested.name, nested.input, nested.toolUseId);
      if (getOwn(block, 'type') !== 'toolUse' && getOwn(block, 'type') !== 'tool_use') return null;
      return call(
        getOwn(block, 'name'),
        getOwn(block, 'input'),
        getOwn(block, 'toolUseId') ?? getOwn(block, 'id'),
      );
    })
    .filter(present);
}

/**
 * LangChain's serialised AIMessage (Traceloop `traceloop.entity.output` of a model node), alone or
 * under `messages` / `output`: kwargs.tool_calls [{name, args, id}], else
 * additional_kwargs.tool_calls [{id, function: {name, arguments}}]. Only the last AIMessage asks.
 */
function fromLangChainOutput(value: unknown): RequestedCall[] {
  const candidates = [value, getOwn(value, 'messages'), getOwn(value, 'output')].flatMap((v) =>
    Array.isArray(v) ? v : [v],
  );
  const asking = candidates.filter((m) => {
    const id = getOwn(m, 'id');
    return Array.isArray(id) && id[id.length - 1] === 'AIMessage';
  });
  const last = asking[asking.length - 1];
  const kwargs = getOwn(last, 'kwargs');
  const direct = list(getOwn(kwargs, 'tool_calls'))
    .map((c) => call(getOwn(c, 'name'), getOwn(c, 'args'), getOwn(c, 'id')))
    .filter(present);
  if (direct.length > 0) return direct;
  return list(getOwn(getOwn(kwargs, 'additional_kwargs'), 'tool_calls'))
    .map((c) => {
      const fn = getOwn(c, 'function');
      return call(getOwn(fn, 'name'), getOwn(fn, 'arguments'), getOwn(c, 'id'));
    })
    .filter(present);
}

function dedupe(calls: RequestedCall[]): RequestedCall[] {
  const seen = new Map<string, RequestedCall>();
  for (const c of calls) {
    const key = c.id ?? `${c.name}\n${c.args ?? ''}`;
    const earlier = seen.get(key);
    if (!earlier) seen.set(key, c);
    else if (earlier.args === undefined && c.args !== undefined) earlier.args = c.args;
  }
  return [...seen.values()];
}

/**
 * Google ADK leaves a failed tool's span empty; the error reaches only the next model request, as
 * a functionResponse `{"id":"call_0_0","name":"deploy","response":{"error":"..."}}`.
 */
export function readReportedFailures(a: Attributes): { id: string; errorClass: ErrorClass }[] {
  const contents = list(getOwn(readStructured(a, 'gcp.vertex.agent.llm_request'), 'contents'));
  const failures = new Map<string, ErrorClass>();
  for (const content of contents) {
    for (const part of list(getOwn(content, 'parts'))) {
      const response = getOwn(part, 'functionResponse');
      const id = getOwn(response, 'id');
      const error = getOwn(getOwn(response, 'response'), 'error');
      if (typeof id !== 'string' || typeof error !== 'string' || failures.size >= MAX_CALLS)
        continue;
      const errorClass = readErrorClass({}, { code: 2, message: error }, null);
      if (errorClass !== null) failures.set(id, errorClass);
    }
  }
  return [...failures].map(([id, errorClass]) => ({ id, errorClass }));
}

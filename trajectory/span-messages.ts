// What a model call was sent and what it answered, read from a stored span's attributes and
// events in every convention real frameworks use (docs/conventions.md, "Messages"). Pure: the
// span as stored in, plain text out. Nothing here is markup; callers render it as text.
import { parseBoundedJson } from './bounded-json';

/** A span as stored: attribute values are whatever the exporter sent (JSON text often). */
export interface MessageSpan {
  attributes: Readonly<Record<string, unknown>>;
  events: readonly { name: string; attributes: Readonly<Record<string, unknown>> }[];
}

export interface MessageToolCall {
  name: string;
  /** The arguments as text (JSON when they were structured). */
  args: string | null;
  id: string | null;
}

export interface ChatMessage {
  role: string;
  /** The text parts, joined; other parts (images, results) as JSON text. */
  content: string;
  toolCalls: MessageToolCall[];
  /** A tool result's call id. */
  toolCallId: string | null;
}

export type MessageConvention =
  | 'gen_ai.messages'
  | 'gen_ai.events'
  | 'openinference'
  | 'vercel-ai'
  | 'openllmetry'
  | 'google-adk';

export interface ModelMessages {
  /** The convention each side was read from (the first that had it). */
  conventions: MessageConvention[];
  input: ChatMessage[];
  output: ChatMessage[];
  finishReason: string | null;
}

/** Past this many messages on a side the rest are dropped (a side says how many it dropped). */
export const MAX_MESSAGES = 500;

interface Side {
  convention: MessageConvention;
  messages: ChatMessage[];
}

/** The messages of a span, or null when it carries none in any known convention. */
export function readSpanMessages(span: MessageSpan): ModelMessages | null {
  const a = span.attributes;
  const readers: [MessageConvention, () => { input: ChatMessage[]; output: ChatMessage[] }][] = [
    ['gen_ai.messages', () => genAiAttributes(a)],
    ['gen_ai.events', () => genAiEvents(span.events)],
    ['openinference', () => openInference(a)],
    ['vercel-ai', () => vercel(a)],
    ['openllmetry', () => openLlmetry(a)],
    ['google-adk', () => googleAdk(a)],
  ];
  let input: Side | null = null;
  let output: Side | null = null;
  for (const [convention, read] of readers) {
    if (input && output) break;
    const found = read();
    if (!input && found.input.length > 0) input = { convention, messages: found.input };
    if (!output && found.output.length > 0) output = { convention, messages: found.output };
  }
  const finishReason = readFinishReason(span);
  if (!input && !output && finishReason === null) return null;
  const conventions = [...new Set([input?.convention, output?.convention])].filter(
    (c): c is MessageConvention => c !== undefined,
  );
  return {
    conventions,
    input: (input?.messages ?? []).slice(0, MAX_MESSAGES),
    output: (output?.messages ?? []).slice(0, MAX_MESSAGES),
    finishReason,
  };
}

// ---- OTel GenAI: gen_ai.input.messages / gen_ai.output.messages (attributes and events) ----

function genAiAttributes(a: Readonly<Record<string, unknown>>) {
  const system = genAiSystem(structured(a['gen_ai.system_instructions']));
  return {
    input: [...system, ...genAiMessages(structured(a['gen_ai.input.messages']))],
    output: genAiMessages(structured(a['gen_ai.output.messages'])),
  };
}

function genAiSystem(value: unknown): ChatMessage[] {
  if (typeof value === 'string' && value !== '') return [message('system', value)];
  const parts = list(value);
  if (parts.length === 0) return [];
  return [{ ...message('system', ''), ...fromParts(parts) }];
}

/** [{role, parts: [{type: 'text', content} | {type: 'tool_call', ...} | ...], finish_reason}]. */
function genAiMessages(value: unknown): ChatMessage[] {
  return list(value).flatMap((m) => {
    if (!isRecord(m)) return [];
    const role = text(m.role) ?? 'unknown';
    if (!Array.isArray(m.parts)) {
      return [message(role, contentText(m.content))];
    }
    return [{ ...message(role, ''), ...fromParts(m.parts) }];
  });
}

function fromParts(parts: unknown[]): Pick<ChatMessage, 'content' | 'toolCalls' | 'toolCallId'> {
  const texts: string[] = [];
  const toolCalls: MessageToolCall[] = [];
  let toolCallId: string | null = null;
  for (const part of parts) {
    if (!isRecord(part)) {
      texts.push(contentText(part));
      continue;
    }
    const type = text(part.type);
    if (type === 'tool_call') {
      const c = toolCall(part.name, part.arguments, part.id);
      if (c) toolCalls.push(c);
    } else if (type === 'tool_call_response') {
      toolCallId = text(part.id) ?? toolCallId;
      texts.push(resultText(part.response ?? part.result));
    } else if ((type === 'text' || type === 'reasoning') && part.content !== undefined) {
      texts.push(contentText(part.content));
    } else {
      texts.push(JSON.stringify(part));
    }
  }
  return { content: join(texts), toolCalls, toolCallId };
}

function genAiEvents(events: MessageSpan['events']) {
  const input: ChatMessage[] = [];
  const output: ChatMessage[] = [];
  for (const event of events) {
    const e = event.attributes;
    if (event.name === 'gen_ai.client.inference.operation.details') {
      input.push(
        ...genAiSystem(structured(e['gen_ai.system_instructions'])),
        ...genAiMessages(structured(e['gen_ai.input.messages'])),
      );
      output.push(...genAiMessages(structured(e['gen_ai.output.messages'])));
      continue;
    }
    const older = /^gen_ai\.(system|user|assistant|tool)\.message$/.exec(event.name);
    if (older) {
      input.push(olderMessage(text(e.role) ?? older[1] ?? 'unknown', e.content, e));
    } else if (event.name === 'gen_ai.choice') {
      output.push(olderMessage('assistant', e.message ?? e.content, e));
    }
  }
  return { input, output };
}

/**
 * The older GenAI events: `content` (or a choice's `message`) is text, a message object
 * {role, content, tool_calls}, or content blocks as JSON text (Strands: [{text}], [{toolUse}]).
 */
function olderMessage(
  role: string,
  value: unknown,
  attributes: Readonly<Record<string, unknown>>,
): ChatMessage {
  const parsed = structured(value);
  const id = text(attributes.id);
  if (isRecord(parsed) && ('content' in parsed || 'tool_calls' in parsed)) {
    const blocks = contentBlocks(list(parsed.content));
    return {
      role: text(parsed.role) ?? role,
      content: Array.isArray(parsed.content) ? blocks.content : contentText(parsed.content),
      toolCalls: [...blocks.toolCalls, ...openAiToolCalls(parsed.tool_calls)],
      toolCallId: text(parsed.tool_call_id) ?? blocks.resultOf ?? id,
    };
  }
  if (Array.isArray(parsed)) {
    const { content, toolCalls, resultOf } = contentBlocks(parsed);
    return { role, content, toolCalls, toolCallId: resultOf ?? id };
  }
  return { ...message(role, contentText(parsed)), toolCallId: id };
}

/** Content blocks: {text}, {toolUse: {...}} / {type: 'toolUse', ...}, {toolResult: {...}}, ... */
function contentBlocks(
  blocks: unknown[],
): Pick<ChatMessage, 'content' | 'toolCalls'> & { resultOf: string | null } {
  const texts: string[] = [];
  const toolCalls: MessageToolCall[] = [];
  let resultOf: string | null = null;
  for (const block of blocks) {
    if (!isRecord(block)) {
      texts.push(contentText(block));
      continue;
    }
    const use = isRecord(block.toolUse) ? block.toolUse : null;
    const type = text(block.type);
    if (use) {
      const c = toolCall(use.name, use.input, use.toolUseId);
      if (c) toolCalls.push(c);
    } else if (type === 'toolUse' || type === 'tool_use' || type === 'tool-call') {
      const c = toolCall(
        block.name ?? block.toolName,
        block.input ?? block.args,
        block.toolUseId ?? block.id ?? block.toolCallId,
      );
      if (c) toolCalls.push(c);
    } else if (typeof block.text === 'string' && (type === null || type === 'text')) {
      texts.push(block.text);
    } else if (isRecord(block.toolResult)) {
      resultOf = text(block.toolResult.toolUseId) ?? resultOf;
      texts.push(resultText(block.toolResult.content ?? block.toolResult));
    } else if (type === 'tool-result') {
      resultOf = text(block.toolCallId) ?? resultOf;
      texts.push(resultText(block.output ?? block.result));
    } else {
      texts.push(JSON.stringify(block));
    }
  }
  return { content: join(texts), toolCalls, resultOf };
}

/**
 * A tool's result as the model was told it: content blocks ([{text}]) as their text, the AI SDK's
 * {type: 'text' | 'json', value} and ADK's {result} as the value, anything else as JSON text.
 */
function resultText(value: unknown): string {
  const parsed = structured(value);
  if (Array.isArray(parsed)) return contentBlocks(parsed).content;
  if (isRecord(parsed)) {
    const keys = Object.keys(parsed);
    if ((parsed.type === 'text' || parsed.type === 'json') && 'value' in parsed)
      return contentText(parsed.value);
    if (keys.length === 1 && keys[0] === 'result') return contentText(parsed.result);
  }
  return contentText(parsed);
}

// ---- OpenInference: llm.input_messages.N.message.* flattened ----

const OI_KEY = /^llm\.(input|output)_messages\.(\d+)\.message\.(.+)$/;
const OI_CALL = /^tool_calls\.(\d+)\.tool_call\.(.+)$/;
const OI_CONTENT = /^contents\.(\d+)\.message_content\.(.+)$/;

interface OiMessage {
  role?: unknown;
  content?: unknown;
  contents: Map<number, Record<string, unknown>>;
  calls: Map<number, Record<string, unknown>>;
  toolCallId?: unknown;
}

function openInference(a: Readonly<Record<string, unknown>>) {
  const sides = { input: new Map<number, OiMessage>(), output: new Map<number, OiMessage>() };
  for (const key of Object.keys(a)) {
    const match = OI_KEY.exec(key);
    if (!match) continue;
    const side = sides[match[1] as 'input' | 'output'];
    const index = Number(match[2]);
    if (index >= MAX_MESSAGES) continue;
    const entry: OiMessage = side.get(index) ?? { contents: new Map(), calls: new Map() };
    side.set(index, entry);
    const field = match[3] ?? '';
    const value = a[key];
    const call = OI_CALL.exec(field);
    const content = OI_CONTENT.exec(field);
    if (field === 'role') entry.role = value;
    else if (field === 'content') entry.content = value;
    else if (field === 'tool_call_id') entry.toolCallId = value;
    else if (call) slot(entry.calls, Number(call[1]))[call[2] ?? ''] = value;
    else if (content) slot(entry.contents, Number(content[1]))[content[2] ?? ''] = value;
  }
  const build = (side: Map<number, OiMessage>): ChatMessage[] =>
    [...side.entries()]
      .sort(([x], [y]) => x - y)
      .map(([, m]) => ({
        role: text(m.role) ?? 'unknown',
        content: join([
          ...(m.content === undefined ? [] : [contentText(m.content)]),
          ...byIndex(m.contents).map((c) =>
            c.text !== undefined ? contentText(c.text) : JSON.stringify(c),
          ),
        ]),
        toolCalls: byIndex(m.calls)
          .map((c) => toolCall(c['function.name'], c['function.arguments'], c.id))
          .filter(present),
        toolCallId: text(m.toolCallId),
      }));
  return { input: build(sides.input), output: build(sides.output) };
}

function slot(map: Map<number, Record<string, unknown>>, index: number): Record<string, unknown> {
  const found = map.get(index);
  if (found) return found;
  const fresh: Record<string, unknown> = {};
  map.set(index, fresh);
  return fresh;
}

function byIndex<T>(map: Map<number, T>): T[] {
  return [...map.entries()].sort(([x], [y]) => x - y).map(([, v]) => v);
}

// ---- Vercel AI SDK: ai.prompt.messages / ai.prompt, ai.response.text / toolCalls ----

function vercel(a: Readonly<Record<string, unknown>>) {
  let input = vercelMessages(structured(a['ai.prompt.messages']));
  if (input.length === 0) {
    const prompt = structured(a['ai.prompt']);
    if (isRecord(prompt)) {
      input = [
        ...(typeof prompt.system === 'string' ? [message('system', prompt.system)] : []),
        ...(typeof prompt.prompt === 'string'
          ? [message('user', prompt.prompt)]
          : vercelMessages(prompt.prompt)),
        ...vercelMessages(prompt.messages),
      ];
    } else if (typeof prompt === 'string' && prompt !== '') {
      input = [message('user', prompt)];
    }
  }
  const responseText = text(a['ai.response.text']);
  const calls = list(structured(a['ai.response.toolCalls']))
    .map((c) => (isRecord(c) ? toolCall(c.toolName, c.input ?? c.args, c.toolCallId) : null))
    .filter(present);
  const output =
    responseText !== null || calls.length > 0
      ? [{ ...message('assistant', responseText ?? ''), toolCalls: calls }]
      : [];
  return { input, output };
}

/** [{role, content: string | [{type: 'text', text} | {type: 'tool-call'} | {type: 'tool-result'}]}]. */
function vercelMessages(value: unknown): ChatMessage[] {
  return list(value).flatMap((m) => {
    if (!isRecord(m)) return [];
    const role = text(m.role) ?? 'unknown';
    if (!Array.isArray(m.content)) return [message(role, contentText(m.content))];
    const { content, toolCalls, resultOf } = contentBlocks(m.content);
    return [{ role, content, toolCalls, toolCallId: resultOf }];
  });
}

// ---- OpenLLMetry: gen_ai.prompt.N.* / gen_ai.completion.N.*, and whole-value gen_ai.prompt ----

const LLMETRY_KEY = /^gen_ai\.(prompt|completion)\.(\d+)\.(.+)$/;
const LLMETRY_CALL = /^tool_calls\.(\d+)\.(.+)$/;

function openLlmetry(a: Readonly<Record<string, unknown>>) {
  const sides = {
    prompt: new Map<number, Record<string, unknown>>(),
    completion: new Map<number, Record<string, unknown>>(),
  };
  const calls = new Map<string, Map<number, Record<string, unknown>>>();
  for (const key of Object.keys(a)) {
    const match = LLMETRY_KEY.exec(key);
    if (!match) continue;
    const index = Number(match[2]);
    if (index >= MAX_MESSAGES) continue;
    const field = match[3] ?? '';
    const call = LLMETRY_CALL.exec(field);
    if (call) {
      const id = `${match[1]}.${index}`;
      const byCall = calls.get(id) ?? new Map<number, Record<string, unknown>>();
      calls.set(id, byCall);
      slot(byCall, Number(call[1]))[call[2] ?? ''] = a[key];
    } else {
      slot(sides[match[1] as 'prompt' | 'completion'], index)[field] = a[key];
    }
    slot(sides[match[1] as 'prompt' | 'completion'], index);
  }
  const build = (side: 'prompt' | 'completion', fallbackRole: string): ChatMessage[] =>
    [...sides[side].entries()]
      .sort(([x], [y]) => x - y)
      .map(([index, m]) => ({
        role: text(m.role) ?? fallbackRole,
        content: m.content === undefined ? '' : contentText(structuredContent(m.content)),
        toolCalls: byIndex(calls.get(`${side}.${index}`) ?? new Map())
          .map((c) => toolCall(c.name, c.arguments, c.id))
          .filter(present),
        toolCallId: text(m.tool_call_id),
      }));
  let input = build('prompt', 'user');
  let output = build('completion', 'assistant');
  // Mastra sends the whole exchange as one value each: {messages: [...]} and {text, ...}.
  if (input.length === 0) {
    const prompt = structured(a['gen_ai.prompt']);
    input = vercelMessages(isRecord(prompt) ? prompt.messages : prompt);
    if (input.length === 0 && typeof prompt === 'string' && prompt !== '')
      input = [message('user', prompt)];
  }
  if (output.length === 0) {
    const completion = structured(a['gen_ai.completion']);
    if (isRecord(completion)) {
      const calls = list(completion.toolCalls)
        .map((c) => (isRecord(c) ? toolCall(c.toolName, c.input ?? c.args, c.toolCallId) : null))
        .filter(present);
      const said = text(completion.text);
      if (said !== null || calls.length > 0)
        output = [{ ...message('assistant', said ?? ''), toolCalls: calls }];
    } else if (typeof completion === 'string' && completion !== '') {
      output = [message('assistant', completion)];
    }
  }
  return { input, output };
}

/** OpenLLMetry content may be JSON text of content blocks ([{type: 'text', text}]). */
function structuredContent(value: unknown): unknown {
  const parsed = structured(value);
  if (Array.isArray(parsed)) return contentBlocks(parsed).content;
  return parsed;
}

// ---- Google ADK: gcp.vertex.agent.llm_request / llm_response ----

function googleAdk(a: Readonly<Record<string, unknown>>) {
  const request = structured(a['gcp.vertex.agent.llm_request']);
  const response = structured(a['gcp.vertex.agent.llm_response']);
  const config = isRecord(request) && isRecord(request.config) ? request.config : {};
  const system = text(config.systemInstruction);
  const contents = isRecord(request) ? list(request.contents) : [];
  const input = [
    ...(system !== null ? [message('system', system)] : []),
    ...contents.map(adkContent).filter(present),
  ];
  const answer = isRecord(response) ? adkContent(response.content) : null;
  return { input, output: answer ? [answer] : [] };
}

function adkContent(content: unknown): ChatMessage | null {
  if (!isRecord(content)) return null;
  const texts: string[] = [];
  const toolCalls: MessageToolCall[] = [];
  let toolCallId: string | null = null;
  for (const part of list(content.parts)) {
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string') texts.push(part.text);
    else if (isRecord(part.functionCall)) {
      const c = toolCall(part.functionCall.name, part.functionCall.args, part.functionCall.id);
      if (c) toolCalls.push(c);
    } else if (isRecord(part.functionResponse)) {
      toolCallId = text(part.functionResponse.id) ?? toolCallId;
      texts.push(resultText(part.functionResponse.response));
    } else texts.push(JSON.stringify(part));
  }
  return { role: text(content.role) ?? 'unknown', content: join(texts), toolCalls, toolCallId };
}

// ---- finish reason ----

function readFinishReason(span: MessageSpan): string | null {
  const a = span.attributes;
  const direct =
    first(structured(a['gen_ai.response.finish_reasons'])) ??
    text(a['llm.finish_reason']) ??
    text(a['ai.response.finishReason']) ??
    text(a['gen_ai.completion.0.finish_reason']);
  if (direct !== null) return direct;
  for (const event of span.events) {
    const e = event.attributes;
    if (event.name === 'gen_ai.choice' && text(e.finish_reason) !== null)
      return text(e.finish_reason);
    if (event.name === 'gen_ai.client.inference.operation.details') {
      const reason =
        first(structured(e['gen_ai.response.finish_reasons'])) ??
        lastFinish(structured(e['gen_ai.output.messages']));
      if (reason !== null) return reason;
    }
  }
  const fromMessages = lastFinish(structured(a['gen_ai.output.messages']));
  if (fromMessages !== null) return fromMessages;
  const adk = structured(a['gcp.vertex.agent.llm_response']);
  return isRecord(adk) ? text(adk.finishReason) : null;
}

function lastFinish(messages: unknown): string | null {
  const reasons = list(messages)
    .map((m) => (isRecord(m) ? text(m.finish_reason) : null))
    .filter(present);
  return reasons[reasons.length - 1] ?? null;
}

function first(value: unknown): string | null {
  if (Array.isArray(value)) return value.map(text).find(present) ?? null;
  return text(value);
}

// ---- small readers ----

function message(role: string, content: string): ChatMessage {
  return { role, content, toolCalls: [], toolCallId: null };
}

function toolCall(name: unknown, args: unknown, id: unknown): MessageToolCall | null {
  const n = text(name);
  if (n === null) return null;
  return {
    name: n,
    args:
      args === undefined || args === null
        ? null
        : typeof args === 'string'
          ? args
          : JSON.stringify(args),
    id: text(id),
  };
}

function openAiToolCalls(value: unknown): MessageToolCall[] {
  return list(value)
    .map((c) => {
      if (!isRecord(c)) return null;
      const fn = isRecord(c.function) ? c.function : c;
      return toolCall(fn.name, fn.arguments, c.id);
    })
    .filter(present);
}

/** Text as sent; structured content as JSON text; nothing as ''. */
function contentText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function text(value: unknown): string | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function join(texts: string[]): string {
  return texts.filter((t) => t !== '').join('\n');
}

/** JSON inside a string (most exporters send it so), or the value as it is. */
function structured(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return value;
  const parsed = parseBoundedJson(trimmed);
  return parsed.ok ? parsed.value : value;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function present<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

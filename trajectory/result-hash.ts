import { jcs, normalizeString, normalizeValue, parseJson, sha256Hex } from './canonical-hash';

// Action names are trimmed, so no action-hash input starts with a newline: no collision possible.
const RESULT_PREFIX = '\nresult\n';

// Envelopes nest (a JSON string holding a ToolMessage holding MCP content); this bounds the peeling.
const MAX_UNWRAP = 16;

const CALL_ID_KEYS = [
  'tool_call_id',
  'toolCallId',
  'tool_use_id',
  'toolUseId',
  'call_id',
  'callId',
];
const MCP_RESULT_KEYS = new Set(['content', 'isError', 'structuredContent', '_meta']);
const TYPED_OUTPUTS = new Set(['text', 'json', 'error-text', 'error-json']);

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const has = (record: Rec, key: string) => Object.hasOwn(record, key);
const onlyKeys = (record: Rec, allowed: ReadonlySet<string>) =>
  Object.keys(record).every((key) => allowed.has(key));

const TEXT_BLOCK_KEYS = new Set(['type', 'text', 'annotations', 'citations', '_meta']);
const JSON_BLOCK_KEYS = new Set(['type', 'json']);

// The payload of one content block: MCP/Anthropic `{type:'text', text}`, Strands `{text}` or `{json}`.
function blockPayload(block: Rec): { payload: unknown } | null {
  const { type } = block;
  const textType = type === undefined || type === 'text' || type === 'output_text';
  if (textType && typeof block.text === 'string' && onlyKeys(block, TEXT_BLOCK_KEYS)) {
    return { payload: block.text };
  }
  const jsonType = type === undefined || type === 'json';
  if (jsonType && has(block, 'json') && onlyKeys(block, JSON_BLOCK_KEYS)) {
    return { payload: block.json };
  }
  return null;
}

function unwrapRecord(record: Rec): { next: unknown } | null {
  // LangChain's serialised message: {"lc":1,"type":"constructor","id":[..],"kwargs":{content,..}}
  if (record.lc === 1 && record.type === 'constructor' && isRecord(record.kwargs)) {
    return has(record.kwargs, 'content') ? { next: record.kwargs.content } : null;
  }
  const keys = Object.keys(record);
  // Strands `{toolResult}`, `{messages}`; OpenInference LangGraph wraps the ToolMessage in `{output}`.
  if (
    keys.length === 1 &&
    (keys[0] === 'toolResult' || keys[0] === 'messages' || keys[0] === 'output')
  ) {
    return { next: record[keys[0]] };
  }
  const isToolMessage =
    CALL_ID_KEYS.some((key) => has(record, key)) ||
    record.role === 'tool' ||
    record.type === 'tool' ||
    record.type === 'tool_result' ||
    record.type === 'tool-result';
  if (isToolMessage) {
    // Python LangGraph's message dump: {"type":"tool","data":{"content":..,"tool_call_id":..}}.
    for (const key of ['content', 'result', 'output', 'data']) {
      if (has(record, key)) return { next: record[key] };
    }
    return null;
  }
  // Vercel AI SDK v5 tool output: {type:'json', value} and kin.
  if (keys.length === 2 && TYPED_OUTPUTS.has(String(record.type)) && has(record, 'value')) {
    return { next: record.value };
  }
  if (Array.isArray(record.content) && onlyKeys(record, MCP_RESULT_KEYS)) {
    return { next: record.content };
  }
  const block = blockPayload(record);
  return block ? { next: block.payload } : null;
}

function unwrapList(list: readonly unknown[]): { next: unknown } | null {
  let changed = false;
  const items = Array.from(list, (item) => {
    const inner = isRecord(item) ? unwrapRecord(item) : null;
    if (inner) changed = true;
    return inner ? inner.next : item;
  });
  if (!changed) return null;
  return { next: items.length === 1 ? items[0] : items };
}

function unwrapOnce(value: unknown): { next: unknown } | null {
  if (typeof value === 'string') {
    const parsed = parseJson(value);
    return parsed.ok ? { next: parsed.value } : null;
  }
  if (Array.isArray(value)) return unwrapList(value);
  return isRecord(value) ? unwrapRecord(value) : null;
}

// The content of a tool result with its envelopes (and their per-call ids) peeled off.
export function unwrapToolResult(result: unknown): unknown {
  let value = result;
  for (let i = 0; i < MAX_UNWRAP; i++) {
    const step = unwrapOnce(value);
    if (!step) break;
    value = step.next;
  }
  return value;
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return normalizeString(value) === '';
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

export function canonicalResultHash(result: unknown): string | null {
  const content = unwrapToolResult(result);
  if (isEmpty(content)) return null;
  return sha256Hex(RESULT_PREFIX + jcs(normalizeValue(content)));
}

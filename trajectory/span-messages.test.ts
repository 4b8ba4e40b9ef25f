// The message reader on the committed captures of real frameworks (conformance/captures): each
// convention as the framework's stock exporter sent it, read back into who said what.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureSpans } from '@/conformance/read-capture';
import type { OtlpSpan } from '@/ingest/otlp/types';
import { MAX_MESSAGES, readSpanMessages } from './span-messages';
import type { ChatMessage } from './span-messages';

const CAPTURES = join(import.meta.dirname, '..', 'conformance', 'captures');

/** The model-call spans of a capture, in start order. */
function calls(capture: string, name: RegExp): OtlpSpan[] {
  return captureSpans(join(CAPTURES, capture))
    .filter((s) => name.test(s.name))
    .sort((a, b) => a.startMs - b.startMs);
}

const said = (messages: ChatMessage[]) =>
  messages.map((m) => ({
    role: m.role,
    content: m.content,
    calls: m.toolCalls.map((c) => `${c.name}(${c.args ?? ''})`),
    ...(m.toolCallId ? { of: m.toolCallId } : {}),
  }));

const FIX = 'Fix the typo in README.md';
const READ = 'read_file({"path":"README.md"})';
const WRITE = 'write_file({"path":"README.md","content":"Fixed the typo."})';
const README = 'contents of README.md: export const x = 1;';
const DONE = 'Done: the typo in README.md is fixed.';

describe('readSpanMessages on real captures', () => {
  it('Strands (TypeScript): the older GenAI events, content blocks and tool results', () => {
    const chats = calls('strands-ts/success', /^chat$/);
    expect(chats).toHaveLength(3);
    const first = readSpanMessages(chats[0]!);
    expect(first?.conventions).toEqual(['gen_ai.events']);
    expect(said(first!.input)).toEqual([{ role: 'user', content: FIX, calls: [] }]);
    expect(said(first!.output)).toEqual([{ role: 'assistant', content: '', calls: [READ] }]);
    expect(first?.finishReason).toBe('toolUse');
    const last = readSpanMessages(chats[2]!);
    expect(said(last!.input)).toEqual([
      { role: 'user', content: FIX, calls: [] },
      { role: 'assistant', content: '', calls: [READ] },
      { role: 'tool', content: README, calls: [], of: 'call_1' },
      { role: 'assistant', content: '', calls: [WRITE] },
      { role: 'tool', content: 'wrote README.md', calls: [], of: 'call_2' },
    ]);
    expect(said(last!.output)).toEqual([{ role: 'assistant', content: DONE, calls: [] }]);
    expect(last?.finishReason).toBe('endTurn');
  });

  it('Strands (latest semconv): gen_ai.client.inference.operation.details events', () => {
    const chats = calls('strands-ts-latest/success', /^chat$/);
    const last = readSpanMessages(chats[2]!);
    expect(last?.conventions).toEqual(['gen_ai.events']);
    expect(said(last!.input)[2]).toEqual({
      role: 'user',
      content: README,
      calls: [],
      of: 'call_1',
    });
    expect(said(last!.output)).toEqual([{ role: 'assistant', content: DONE, calls: [] }]);
    expect(last?.finishReason).toBe('endTurn');
    expect(readSpanMessages(chats[0]!)?.output[0]?.toolCalls).toEqual([
      { name: 'read_file', args: '{"path":"README.md"}', id: 'call_1' },
    ]);
  });

  it('Strands (Python): content blocks in JSON text with Python spacing', () => {
    const [first] = calls('python-strands/success', /^chat$/);
    const read = readSpanMessages(first!);
    expect(said(read!.input)).toEqual([
      { role: 'user', content: 'Find why the orders service fails to start and fix it', calls: [] },
    ]);
    expect(read?.output[0]?.toolCalls).toEqual([
      { name: 'read_file', args: '{"path":"README.md"}', id: 'tooluse_000000000000' },
    ]);
    expect(read?.finishReason).toBe('tool_use');
  });

  it('OpenAI Agents via OpenInference: flattened llm.input_messages / llm.output_messages', () => {
    const generations = calls('openai-agents/success', /^generation$/);
    expect(generations).toHaveLength(3);
    const first = readSpanMessages(generations[0]!);
    expect(first?.conventions).toEqual(['openinference']);
    expect(said(first!.input)).toEqual([
      { role: 'system', content: 'You are a careful engineer.', calls: [] },
      { role: 'user', content: FIX, calls: [] },
    ]);
    expect(first?.output[0]?.toolCalls).toEqual([
      { name: 'read_file', args: '{"path":"README.md"}', id: 'call_1' },
    ]);
    expect(first?.finishReason).toBe('tool_calls');
    const last = readSpanMessages(generations[2]!);
    expect(said(last!.input).slice(2)).toEqual([
      { role: 'assistant', content: '', calls: [READ] },
      { role: 'tool', content: README, calls: [], of: 'call_1' },
      { role: 'assistant', content: '', calls: [WRITE] },
      { role: 'tool', content: 'wrote README.md', calls: [], of: 'call_2' },
    ]);
    expect(said(last!.output)).toEqual([{ role: 'assistant', content: DONE, calls: [] }]);
    expect(last?.finishReason).toBe('stop');
  });

  it('OpenAI Agents (Python) via OpenInference: message contents and sparse indexes', () => {
    const responses = calls('python-openai-agents/success', /^response$/);
    const last = readSpanMessages(responses[responses.length - 1]!);
    // The exporter starts input messages at index 1: order is kept, no empty slot is invented.
    expect(said(last!.input)).toEqual([
      { role: 'user', content: 'Find why the orders service fails to start and fix it', calls: [] },
    ]);
    expect(said(last!.output)).toEqual([{ role: 'assistant', content: 'Done.', calls: [] }]);
  });

  it('LangGraph via OpenInference: tool calls without ids', () => {
    const models = calls('langgraph-openinference/success', /^ChatOpenAI$/);
    const read = readSpanMessages(models[0]!);
    expect(read?.output[0]?.toolCalls).toEqual([
      { name: 'read_file', args: '{"path":"README.md"}', id: null },
    ]);
  });

  it('Vercel AI SDK 6: ai.prompt.messages, ai.response.toolCalls and ai.response.text', () => {
    const steps = calls('ai-sdk-6/success', /^ai\.generateText\.doGenerate$/);
    expect(steps).toHaveLength(3);
    const first = readSpanMessages(steps[0]!);
    expect(first?.conventions).toEqual(['vercel-ai']);
    expect(said(first!.input)).toEqual([{ role: 'user', content: FIX, calls: [] }]);
    expect(said(first!.output)).toEqual([{ role: 'assistant', content: '', calls: [READ] }]);
    expect(first?.finishReason).toBe('tool-calls');
    const last = readSpanMessages(steps[2]!);
    expect(said(last!.input)[2]).toEqual({
      role: 'tool',
      content: README,
      calls: [],
      of: 'call_1',
    });
    expect(said(last!.output)).toEqual([{ role: 'assistant', content: DONE, calls: [] }]);
    // The outer generateText span: ai.prompt (a prompt, no messages) and the final text.
    const [outer] = calls('ai-sdk-6/success', /^ai\.generateText$/);
    const whole = readSpanMessages(outer!);
    expect(whole?.input.map((m) => m.role)).toContain('user');
    expect(said(whole!.output)).toEqual([{ role: 'assistant', content: DONE, calls: [] }]);
  });

  it('Vercel AI SDK 7 and pydantic-ai: gen_ai.input.messages / gen_ai.output.messages attributes', () => {
    const chats = calls('ai-sdk-7/success', /^chat /);
    const last = readSpanMessages(chats[chats.length - 1]!);
    expect(last?.conventions).toEqual(['gen_ai.messages']);
    expect(said(last!.input)[2]).toEqual({
      role: 'tool',
      content: README,
      calls: [],
      of: 'call_1',
    });
    expect(said(last!.output)).toEqual([{ role: 'assistant', content: DONE, calls: [] }]);
    expect(last?.finishReason).toBe('stop');
    const [pydantic] = calls('python-pydantic-ai/success', /^chat /);
    expect(readSpanMessages(pydantic!)?.output[0]?.toolCalls[0]).toEqual({
      name: 'read_file',
      args: '{"path":"README.md"}',
      id: 'call_0001',
    });
  });

  it('LangGraph via Traceloop (OpenLLMetry): gen_ai.input.messages with a finish reason', () => {
    const chats = calls('langgraph-traceloop/success', /^chat /);
    const last = readSpanMessages(chats[chats.length - 1]!);
    expect(said(last!.output)).toEqual([{ role: 'assistant', content: DONE, calls: [] }]);
    expect(last?.finishReason).toBe('stop');
  });

  it('Mastra: the whole exchange in gen_ai.prompt / gen_ai.completion', () => {
    const chats = calls('mastra/success', /^chat /);
    const read = readSpanMessages(chats[chats.length - 1]!);
    expect(read?.conventions).toEqual(['openllmetry']);
    expect(said(read!.input).slice(0, 2)).toEqual([
      { role: 'system', content: 'You are a careful engineer.', calls: [] },
      { role: 'user', content: FIX, calls: [] },
    ]);
    expect(said(read!.output)).toEqual([{ role: 'assistant', content: DONE, calls: [] }]);
  });

  it('Google ADK: llm_request contents and llm_response, with the system instruction', () => {
    const models = calls('google-adk/success', /^call_llm$/);
    const last = readSpanMessages(models[models.length - 1]!);
    expect(last?.conventions).toEqual(['google-adk']);
    expect(last?.input[0]?.role).toBe('system');
    expect(said(last!.input)[3]).toEqual({
      role: 'user',
      content: README,
      calls: [],
      of: 'call_0_0',
    });
    expect(said(last!.output)).toEqual([{ role: 'model', content: DONE, calls: [] }]);
  });

  it('a span without messages in any convention reads as none', () => {
    const [tool] = calls('openai-agents/success', /^read_file$/);
    expect(readSpanMessages(tool!)).toBeNull();
  });
});

describe('readSpanMessages on shapes no capture holds', () => {
  // OpenLLMetry's indexed attributes (opentelemetry-semantic-conventions-ai `gen_ai.prompt.N.*`),
  // as its Python instrumentations set them: no committed capture sends this form.
  it('OpenLLMetry indexed gen_ai.prompt.N / gen_ai.completion.N with tool calls', () => {
    const read = readSpanMessages({
      attributes: {
        'gen_ai.prompt.0.role': 'system',
        'gen_ai.prompt.0.content': 'Be brief.',
        'gen_ai.prompt.1.role': 'user',
        'gen_ai.prompt.1.content': 'Weather in Paris?',
        'gen_ai.completion.0.role': 'assistant',
        'gen_ai.completion.0.finish_reason': 'tool_calls',
        'gen_ai.completion.0.tool_calls.0.name': 'get_weather',
        'gen_ai.completion.0.tool_calls.0.arguments': '{"city":"Paris"}',
        'gen_ai.completion.0.tool_calls.0.id': 'call_9',
      },
      events: [],
    });
    expect(read?.conventions).toEqual(['openllmetry']);
    expect(said(read!.input)).toEqual([
      { role: 'system', content: 'Be brief.', calls: [] },
      { role: 'user', content: 'Weather in Paris?', calls: [] },
    ]);
    expect(said(read!.output)).toEqual([
      { role: 'assistant', content: '', calls: ['get_weather({"city":"Paris"})'] },
    ]);
    expect(read?.finishReason).toBe('tool_calls');
  });

  it('keeps hostile text exactly as sent: the reader neither escapes nor interprets it', () => {
    const hostile = '<script>window.pwned=1</script><img src=x onerror=alert(1)>';
    const read = readSpanMessages({
      attributes: {
        'llm.input_messages.0.message.role': 'user',
        'llm.input_messages.0.message.content': hostile,
      },
      events: [],
    });
    expect(read?.input[0]?.content).toBe(hostile);
  });

  it('survives junk: broken JSON, numbers, nested nonsense, huge indexes', () => {
    const read = readSpanMessages({
      attributes: {
        'gen_ai.input.messages': '[{"role": "user", "parts": [',
        'gen_ai.output.messages': 42,
        'ai.prompt.messages': '{"not": "a list"}',
        'llm.input_messages.99999999999.message.content': 'far',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 7,
        'gen_ai.response.finish_reasons': [null, 'length'],
      },
      events: [{ name: 'gen_ai.choice', attributes: { message: '[1, null, {"text": 2}]' } }],
    });
    expect(read?.finishReason).toBe('length');
    expect(read?.input).toEqual([]);
    expect(read?.output[0]?.role).toBe('assistant');
  });

  it(`stops at ${MAX_MESSAGES} messages a side`, () => {
    const attributes: Record<string, unknown> = {};
    for (let i = 0; i < MAX_MESSAGES + 10; i++) {
      attributes[`llm.input_messages.${i}.message.role`] = 'user';
      attributes[`llm.input_messages.${i}.message.content`] = `m${i}`;
    }
    const read = readSpanMessages({ attributes, events: [] });
    expect(read?.input).toHaveLength(MAX_MESSAGES);
    expect(read?.input[MAX_MESSAGES - 1]?.content).toBe(`m${MAX_MESSAGES - 1}`);
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalActionHash } from './canonical-hash';
import { canonicalResultHash, unwrapToolResult } from './result-hash';

// printf '\nresult\n{"temp":21.5,"unit":"C"}' | sha256sum
const PINNED_WEATHER = '84f35ee8b08896e6c945cf8e8231ff79067aac00c585f9efc8820c0582413af8';
// printf '\nresult\n"sunny"' | sha256sum
const PINNED_SUNNY = '86a4aa77b4de73806e1475437c73429161447553f874362228cf5eeaa3444df7';

const weather = { unit: 'C', temp: 21.5 };
const weatherText = '{"unit": "C",  "temp": 21.50}';

const toolMessage = (content: unknown, id: string) => ({
  lc: 1,
  type: 'constructor',
  id: ['langchain', 'schema', 'messages', 'ToolMessage'],
  kwargs: { content, tool_call_id: id, name: 'get_weather', status: 'success', type: 'tool' },
});

describe('canonicalResultHash: envelopes are peeled off', () => {
  const weatherForms: [label: string, result: unknown][] = [
    ['the bare object', weather],
    ['JSON text', weatherText],
    ['LangChain ToolMessage, content as JSON text', toolMessage(weatherText, 'call_1')],
    ['LangChain ToolMessage, other call id', toolMessage(weatherText, 'call_2')],
    ['LangChain ToolMessage serialised to a string', JSON.stringify(toolMessage(weather, 'c3'))],
    ['LangChain ToolMessage as a dict', { type: 'tool', content: weatherText, tool_call_id: 'x' }],
    ['LangGraph node update', { messages: [toolMessage(weatherText, 'call_9')] }],
    ['OpenAI tool message', { role: 'tool', content: weatherText, tool_call_id: 'call_abc' }],
    [
      'Anthropic tool_result',
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [{ type: 'text', text: weatherText }],
      },
    ],
    ['Vercel AI SDK v4', { toolCallId: 'c', toolName: 'get_weather', args: {}, result: weather }],
    [
      'Vercel AI SDK v5',
      {
        type: 'tool-result',
        toolCallId: 'c',
        toolName: 'w',
        output: { type: 'json', value: weather },
      },
    ],
    [
      'Strands toolResult',
      { toolUseId: 'tooluse_1', status: 'success', content: [{ json: weather }] },
    ],
    [
      'Strands toolResult wrapped',
      { toolResult: { toolUseId: 't', status: 'success', content: [{ text: weatherText }] } },
    ],
    ['MCP CallToolResult', { content: [{ type: 'text', text: weatherText }], isError: false }],
    [
      'OpenAI Responses output',
      { type: 'function_call_output', call_id: 'fc_1', output: weatherText },
    ],
    ['double-encoded JSON', JSON.stringify(weatherText)],
  ];
  it.each(weatherForms)('%s', (_label, result) => {
    expect(canonicalResultHash(result)).toBe(PINNED_WEATHER);
  });

  const sunnyForms: [label: string, result: unknown][] = [
    ['plain text', 'sunny'],
    ['padded text', '  sunny \n'],
    ['Strands text block', { toolUseId: 'a', status: 'success', content: [{ text: 'sunny' }] }],
    ['MCP text list', { content: [{ type: 'text', text: 'sunny' }] }],
    [
      'Vercel v5 text output',
      { toolCallId: 'c', toolName: 'w', output: { type: 'text', value: 'sunny' } },
    ],
  ];
  it.each(sunnyForms)('%s', (_label, result) => {
    expect(canonicalResultHash(result)).toBe(PINNED_SUNNY);
  });
});

describe('canonicalResultHash: content decides', () => {
  it('two ToolMessages with different call ids but the same content match', () => {
    const a = canonicalResultHash(toolMessage('file not found', 'call_1'));
    const b = canonicalResultHash(toolMessage('file not found', 'call_2'));
    expect(a).not.toBeNull();
    expect(a).toBe(b);
  });

  it.each([
    ['ToolMessage content', toolMessage('a', 'c'), toolMessage('b', 'c')],
    [
      'MCP text',
      { content: [{ type: 'text', text: 'a' }] },
      { content: [{ type: 'text', text: 'b' }] },
    ],
    ['numbers past 6 places', { n: 1.00001 }, { n: 1.00002 }],
    ['several blocks versus one', { content: [{ text: 'a' }, { text: 'b' }] }, 'a'],
    [
      'an image block kept whole',
      [{ type: 'image', data: 'AAA' }],
      [{ type: 'image', data: 'AAB' }],
    ],
  ])('%s differ', (_label, a, b) => {
    expect(canonicalResultHash(a)).not.toBe(canonicalResultHash(b));
  });

  it('ignores key order, spacing and float noise, like the action hash', () => {
    expect(canonicalResultHash('{"b": 0.1 , "a": "x  y"}')).toBe(
      canonicalResultHash({ a: 'x y', b: 0.1000000001 }),
    );
  });

  it('never collides with an action hash', () => {
    const value = { temp: 21.5, unit: 'C' };
    expect(canonicalResultHash(value)).not.toBe(canonicalActionHash('result', value));
    expect(canonicalResultHash(value)).not.toBe(canonicalActionHash('', value));
  });
});

describe('canonicalResultHash: nothing to hash', () => {
  it.each([
    ['null', null],
    ['undefined', undefined],
    ['empty string', ''],
    ['white space', ' \n\t '],
    ['empty list', []],
    ['empty object', {}],
    ['ToolMessage with empty content', toolMessage('', 'call_1')],
    ['MCP result with no content', { content: [], isError: false }],
  ])('%s → null', (_label, result) => {
    expect(canonicalResultHash(result)).toBeNull();
  });
});

describe('unwrapToolResult', () => {
  it('leaves results without an envelope alone', () => {
    const rows = [{ id: 1, text: 'a', extra: true }];
    expect(unwrapToolResult(rows)).toBe(rows);
    expect(unwrapToolResult('plain text')).toBe('plain text');
  });

  it('keeps __proto__ as data and survives deep nesting', () => {
    const hostile = '{"tool_call_id":"x","content":{"__proto__":{"polluted":1}}}';
    expect(canonicalResultHash(hostile)).toMatch(/^[0-9a-f]{64}$/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(() => canonicalResultHash(deep)).not.toThrow();
  });
});

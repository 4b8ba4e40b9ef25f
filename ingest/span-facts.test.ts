import { describe, expect, it } from 'vitest';
import { readErrorClass } from './error-class';
import { extractSpanFacts } from './span-facts';
import { attrs, event, span } from './test-spans';

const facts = (
  attributes: Parameters<typeof span>[5],
  extra: Parameters<typeof span>[6] = {},
  name = 'x',
) => extractSpanFacts(span(1, null, name, 0, 1, attributes, extra));

describe('extractSpanFacts', () => {
  it.each([
    [{ 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.prompt_tokens': 99 }, 10],
    [{ 'gen_ai.usage.prompt_tokens': 11 }, 11],
    [{ 'llm.token_count.prompt': 12 }, 12],
    [{ 'ai.usage.promptTokens': 13 }, 13],
  ])('reads input tokens from %o once', (attributes, expected) => {
    expect(facts(attributes).inputTokens).toBe(expected);
  });

  it.each([
    [
      { 'gen_ai.response.model': 'gpt-4o-2024-08-06', 'gen_ai.request.model': 'gpt-4o' },
      'gpt-4o-2024-08-06',
    ],
    [{ 'gen_ai.request.model': 'gpt-4o' }, 'gpt-4o'],
    [{ 'llm.model_name': 'claude-sonnet-4' }, 'claude-sonnet-4'],
  ])('reads the model from %o', (attributes, expected) => {
    expect(facts(attributes).model).toBe(expected);
  });

  it('reads the run attributes and their fallbacks', () => {
    expect(
      facts({
        'gen_ai.agent.name': 'triage',
        'loop.limits.max_steps': '12',
        'loop.verified': 'true',
      }),
    ).toMatchObject({
      agent: 'triage',
      maxSteps: 12,
      verified: true,
    });
    expect(facts({ 'loop.agent': 'a', 'gen_ai.agent.name': 'b' }).agent).toBe('a');
  });

  it.each([
    [{ 'loop.session.id': 'conv-1', 'session.id': 'x', 'gen_ai.conversation.id': 'y' }, 'conv-1'],
    [{ 'session.id': 'conv-2', 'gen_ai.conversation.id': 'y' }, 'conv-2'],
    [{ 'gen_ai.conversation.id': 'conv-3' }, 'conv-3'],
    [{ 'session.id': '' }, undefined],
  ])('reads the session id from %o', (attributes, expected) => {
    expect(facts(attributes).sessionId).toBe(expected);
  });

  it.each([
    [{ 'loop.tags': ['nightly', ' eval ', 'nightly', ''] }, ['nightly', 'eval']],
    [{ 'loop.tags': 'nightly, eval,,' }, ['nightly', 'eval']],
    [{ 'loop.tags': '["a","b"]' }, ['a', 'b']],
    [{ 'tag.tags': ['langfuse'] }, ['langfuse']],
    [{ 'loop.tags': ['x'], 'tag.tags': ['y'] }, ['x']],
    [{ 'loop.tags': [{ nested: true }, 7] }, ['7']],
    [{ 'loop.tags': ' , ' }, undefined],
  ])('reads tags from %o', (attributes, expected) => {
    expect(facts(attributes).tags).toEqual(expected);
  });

  it('keeps at most 50 tags of at most 200 characters', () => {
    const many = Array.from({ length: 80 }, (_, k) => `t${k}`);
    expect(facts({ 'loop.tags': many }).tags).toHaveLength(50);
    expect(facts({ 'loop.tags': ['x'.repeat(500)] }).tags?.[0]).toHaveLength(200);
  });

  it('finds the exit reason in the attribute, the finish reason, an event or an exception', () => {
    expect(facts({ 'gen_ai.agent.finish_reason': 'max_turns' }).exitReason).toBe('max_turns');
    expect(facts({ 'gen_ai.response.finish_reasons': ['tool_calls', 'stop'] }).finishReason).toBe(
      'stop',
    );
    expect(
      facts({}, { events: [event('gen_ai.choice', { finish_reason: 'limitTurns' })] }).finishReason,
    ).toBe('limitTurns');
    expect(
      facts(
        {},
        {
          events: [
            event('exception', {
              'exception.type': 'GraphRecursionError',
              'exception.message': 'limit 25',
            }),
          ],
        },
      ),
    ).toMatchObject({
      exceptionType: 'GraphRecursionError',
      exceptionMessage: 'limit 25',
      exitDetail: 'limit 25',
    });
  });

  it('hashes the action canonically and the result by content, not envelope', () => {
    const a = facts({
      'loop.action': 'fix',
      'loop.action.args': '{"b": 1.0000001, "a": " x  y "}',
    });
    const b = facts({ 'loop.action': 'fix', 'loop.action.args': '{"a":"x y","b":1}' });
    expect(a.actionHash).toBe(b.actionHash);
    const envelope = (id: string) =>
      JSON.stringify({
        lc: 1,
        type: 'constructor',
        id: ['langchain', 'schema', 'messages', 'ToolMessage'],
        kwargs: { content: 'restart ok', tool_call_id: id },
      });
    const r1 = facts(
      { 'gen_ai.tool.name': 't', 'gen_ai.tool.call.result': envelope('call_1') },
      {},
      'execute_tool t',
    );
    const r2 = facts(
      { 'gen_ai.tool.name': 't', 'gen_ai.tool.call.result': envelope('call_2') },
      {},
      'execute_tool t',
    );
    expect(r1.resultHash).toBeDefined();
    expect(r1.resultHash).toBe(r2.resultHash);
  });

  it('keeps a verdict with its source (self when not said) and per-field verification', () => {
    expect(facts({ 'loop.verdict': 'PASS' })).toMatchObject({
      verdict: 'pass',
      verdictSource: 'self',
    });
    expect(facts({ 'loop.verdict': 'maybe' }).verdict).toBeUndefined();
    const fields = facts({
      'loop.verdict.fields': '{"tests":true,"__proto__":false,"n":1}',
    }).verdictFields;
    expect(Object.entries(fields ?? {})).toEqual([
      ['tests', true],
      ['__proto__', false],
    ]);
  });

  it('treats keys such as __proto__ in attributes and arguments as data', () => {
    const attributes = attrs({
      'loop.action': 'a',
      'loop.action.args': '{"__proto__":{"polluted":true}}',
    });
    Object.defineProperty(attributes, '__proto__', { value: 'x', enumerable: true });
    const polluted = extractSpanFacts({ ...span(1, null, 'x', 0, 1), attributes });
    const plain = facts({ 'loop.action': 'a', 'loop.action.args': '{}' });
    expect(polluted.actionHash).toMatch(/^[0-9a-f]{64}$/);
    expect(polluted.actionHash).not.toBe(plain.actionHash);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('readErrorClass', () => {
  it.each([
    [{ 'loop.error.class': 'loop_hazard' }, 0, '', 'loop_hazard'],
    [{}, 0, '', null],
    [{ 'http.response.status_code': 403 }, 2, '', 'permission'],
    [{ 'http.response.status_code': 429 }, 2, '', 'transient'],
    [{ 'http.response.status_code': 404 }, 2, '', 'precondition'],
    [{ 'http.response.status_code': 422 }, 2, '', 'malformed'],
    [{ 'error.type': 'PermissionDenied' }, 2, '', 'permission'],
    [{}, 2, 'connection timed out', 'transient'],
    [{}, 2, 'invalid JSON in arguments', 'malformed'],
    [{}, 2, 'something odd', 'transient'],
  ] as const)('%o status %i %s → %s', (attributes, code, message, expected) => {
    expect(readErrorClass(attrs(attributes), { code, message }, null)).toBe(expected);
  });
});

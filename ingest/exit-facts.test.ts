import { describe, expect, it } from 'vitest';
import { extractSpanFacts } from './span-facts';
import { event, span } from './test-spans';

const facts = (...args: Parameters<typeof span>) => extractSpanFacts(span(...args));

describe('where a span says why the loop stopped', () => {
  it('reads the exception name inside the JSON text of its message', () => {
    const f = facts(
      1,
      null,
      'coder',
      0,
      9,
      { 'openinference.span.kind': 'AGENT' },
      {
        statusCode: 2,
        events: [
          event('exception', {
            'exception.message':
              'Error in agent run: {"error":"MaxTurnsExceededError: Max turns (4) exceeded"}',
          }),
        ],
      },
    );
    expect(f.exceptionType).toBe('MaxTurnsExceededError');
    expect(f.exceptionMessage).toContain('Max turns (4)');
  });

  it('prefers a named exception inside the message over a generic exception.type', () => {
    const f = facts(
      1,
      null,
      'x',
      0,
      9,
      {},
      {
        events: [
          event('exception', {
            'exception.type': 'Error',
            'exception.message': '[{"value":1}]\n\nGraphInterrupt: [{"value":1}]',
          }),
        ],
      },
    );
    expect(f.exceptionType).toBe('GraphInterrupt');
  });

  it('keeps a specific exception.type as it is', () => {
    const f = facts(
      1,
      null,
      'x',
      0,
      9,
      {},
      {
        events: [
          event('exception', { 'exception.type': 'GraphRecursionError', 'exception.message': 'x' }),
        ],
      },
    );
    expect(f.exceptionType).toBe('GraphRecursionError');
  });

  it('reads finish_reason inside gen_ai.output.messages on operation.details events (Strands latest)', () => {
    const f = facts(
      1,
      null,
      'invoke_agent coder',
      0,
      9,
      { 'gen_ai.operation.name': 'invoke_agent' },
      {
        events: [
          event('gen_ai.client.inference.operation.details', {
            'gen_ai.input.messages': '[{"role":"user","parts":[{"type":"text","content":"go"}]}]',
          }),
          event('gen_ai.client.inference.operation.details', {
            'gen_ai.output.messages':
              '[{"role":"assistant","parts":[{"type":"text","content":""}],"finish_reason":"limitTurns"}]',
          }),
        ],
      },
    );
    expect(f.finishReason).toBe('limitTurns');
  });

  it('reads finish_reason inside a gen_ai.output.messages attribute', () => {
    const f = facts(1, null, 'chat', 0, 9, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.output.messages': '[{"role":"assistant","parts":[],"finish_reason":"interrupt"}]',
    });
    expect(f.finishReason).toBe('interrupt');
  });

  it('reads the Responses API output of OpenAI Agents Python: a function call asks, a message answers', () => {
    const llm = (output: string) =>
      facts(1, null, 'response', 0, 9, {
        'openinference.span.kind': 'LLM',
        'output.value': output,
      });
    expect(
      llm(
        '{"output":[{"type":"function_call","call_id":"c1","name":"read_file","arguments":"{}"}]}',
      ).finishReason,
    ).toBe('tool_calls');
    expect(
      llm('{"output":[{"type":"message","content":[{"type":"output_text","text":"Done."}]}]}')
        .finishReason,
    ).toBe('stop');
    expect(llm('not json').finishReason).toBeUndefined();
  });

  it('a Google ADK model call that asked for a tool did not stop, whatever its finish reason says', () => {
    const call = (parts: unknown[]) =>
      facts(1, null, 'call_llm', 0, 9, {
        'gen_ai.response.finish_reasons': ['stop'],
        'gcp.vertex.agent.llm_response': JSON.stringify({ content: { role: 'model', parts } }),
      });
    const asking = call([{ functionCall: { id: 'c1', name: 'deploy', args: { v: 1 } } }]);
    expect(asking.role).toBe('llm');
    expect(asking.finishReason).toBe('tool_calls');
    expect(asking.requestedCalls).toEqual([{ name: 'deploy', args: '{"v":1}', id: 'c1' }]);
    expect(call([{ text: 'Done.' }]).finishReason).toBe('stop');
  });

  it.each([
    [{ 'openinference.span.kind': 'GUARDRAIL', 'guardrail.triggered': true }, 'guardrail'],
    [{ 'pydantic_ai.tool.deferral.name': 'ApprovalRequired' }, 'ApprovalRequired'],
    [
      {
        'gcp.vertex.agent.tool_response':
          '{"error":"This tool call requires confirmation, please approve or reject."}',
      },
      'pending_approval',
    ],
  ])('names a stop from a framework mark %o', (attributes, reason) => {
    expect(facts(1, 0, 'x', 0, 9, attributes).namedReason).toBe(reason);
  });

  it('a guardrail that did not trip and an ordinary tool error name nothing', () => {
    expect(facts(1, 0, 'g', 0, 9, { 'guardrail.triggered': false }).namedReason).toBeUndefined();
    expect(
      facts(1, 0, 't', 0, 9, {
        'gcp.vertex.agent.tool_response': '{"error":"cluster unreachable"}',
      }).namedReason,
    ).toBeUndefined();
  });
});

describe('tool calls a model call asked for', () => {
  it.each([
    [
      'OTel GenAI latest',
      {
        'gen_ai.operation.name': 'chat',
        'gen_ai.output.messages':
          '[{"role":"assistant","parts":[{"type":"tool_call","name":"delete_branch","id":"c1","arguments":{"name":"stale"}}]}]',
      },
    ],
    [
      'OpenInference',
      {
        'openinference.span.kind': 'LLM',
        'llm.output_messages.0.message.tool_calls.0.tool_call.id': 'c1',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': 'delete_branch',
        'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments':
          '{"name":"stale"}',
      },
    ],
    [
      'Traceloop LangChain AIMessage',
      {
        'traceloop.span.kind': 'workflow',
        'traceloop.entity.output': JSON.stringify({
          messages: [
            {
              lc: 1,
              type: 'constructor',
              id: ['langchain_core', 'messages', 'AIMessage'],
              kwargs: {
                content: '',
                additional_kwargs: {
                  tool_calls: [
                    {
                      id: 'c1',
                      type: 'function',
                      function: { name: 'delete_branch', arguments: '{"name":"stale"}' },
                    },
                  ],
                },
              },
            },
          ],
        }),
      },
    ],
  ])('reads them from %s', (_shape, attributes) => {
    const [call] = facts(1, null, 'x', 0, 9, attributes).requestedCalls ?? [];
    expect(call?.name).toBe('delete_branch');
    expect(call?.id).toBe('c1');
    expect(JSON.parse(call?.args ?? 'null')).toEqual({ name: 'stale' });
  });

  it('reads them from Strands default gen_ai.choice events', () => {
    const f = facts(
      1,
      null,
      'chat',
      0,
      9,
      { 'gen_ai.operation.name': 'chat' },
      {
        events: [
          event('gen_ai.choice', {
            finish_reason: 'toolUse',
            message:
              '[{"type":"toolUse","name":"delete_branch","toolUseId":"c1","input":{"name":"stale"}}]',
          }),
        ],
      },
    );
    expect(f.requestedCalls).toEqual([
      { name: 'delete_branch', args: '{"name":"stale"}', id: 'c1' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { classifyExitReason } from '../trajectory/exit-reason';
import { assemble, event, span } from '../ingest/test-spans';
import type { AssembledRun } from './assemble-run';

const exit = (run: AssembledRun) =>
  classifyExitReason({
    raw: run.input.exitReason?.raw ?? null,
    source: run.input.exitReason?.source,
    detail: run.input.exitDetail,
    ended: run.input.ended,
  });

const root = (attributes = {}, extra = {}) =>
  span(1, null, 'coder', 0, 100, { 'openinference.span.kind': 'CHAIN', ...attributes }, extra);
const llm = (id: number, start: number, finish: string | null, calls: [string, string][] = []) =>
  span(id, 1, 'generation', start, start + 5, {
    'openinference.span.kind': 'LLM',
    ...(finish === null ? {} : { 'llm.finish_reason': finish }),
    ...Object.fromEntries(
      calls.flatMap(([name, args], k) => [
        [`llm.output_messages.0.message.tool_calls.${k}.tool_call.function.name`, name],
        [`llm.output_messages.0.message.tool_calls.${k}.tool_call.function.arguments`, args],
      ]),
    ),
  });
const tool = (id: number, start: number, name: string, extra = {}, attributes = {}) =>
  span(
    id,
    1,
    name,
    start,
    start + 5,
    { 'openinference.span.kind': 'TOOL', 'tool.name': name, ...attributes },
    extra,
  );

describe('why a run stopped, read from the whole run', () => {
  it('a GraphInterrupt on a child tool span beats the guess from the last tool_calls finish reason', () => {
    const run = assemble([
      root(),
      llm(2, 10, 'tool_calls', [['delete_branch', '{"name":"x"}']]),
      tool(3, 20, 'delete_branch', {
        statusCode: 2,
        statusMessage: '[{"value":{"question":"Delete?"}}]\n\nGraphInterrupt: [{"value":1}]',
      }),
    ]);
    expect(exit(run)).toEqual({ category: 'escalated', kind: null });
  });

  it('a tripped guardrail span cancels the run; a framework limit in a child status is a step budget', () => {
    const guarded = assemble([
      root(),
      span(2, 1, 'no_secrets', 5, 6, {
        'openinference.span.kind': 'GUARDRAIL',
        'guardrail.triggered': true,
      }),
      llm(3, 10, 'stop'),
    ]);
    expect(exit(guarded).category).toBe('cancelled');
    const limited = assemble([
      root(),
      llm(2, 10, 'tool_calls', [['list', '{}']]),
      tool(3, 20, 'list'),
      span(
        4,
        1,
        'Support agent',
        30,
        40,
        { 'openinference.span.kind': 'AGENT' },
        {
          statusCode: 2,
          statusMessage: "Max turns exceeded: {'max_turns': 3}",
        },
      ),
    ]);
    expect(exit(limited)).toEqual({ category: 'budget_exhausted', kind: 'steps' });
  });

  it('a tool that fails with a timeout is not the run running out of time', () => {
    const run = assemble([
      root(),
      tool(2, 5, 'fetch', { statusCode: 2, statusMessage: 'TimeoutError: took 31s' }),
      llm(3, 20, 'stop'),
    ]);
    expect(exit(run).category).toBe('model_stopped');
  });

  it('a last request for a tool that never ran is no step limit: the run does not know (approval)', () => {
    const run = assemble([
      root(),
      llm(2, 10, 'tool_calls', [['read_file', '{"p":1}']]),
      tool(3, 20, 'read_file'),
      llm(4, 30, 'tool_calls', [['delete_branch', '{"name":"x"}']]),
    ]);
    expect(exit(run)).toEqual({ category: 'unknown', kind: null });
    // Without loop-cycle spans each tool call is a step: the call that never ran is none.
    expect(run.steps.map((s) => s.action)).toEqual(['read_file']);
  });

  it('a last request whose tool then ran is the step limit', () => {
    const run = assemble([root(), llm(2, 10, 'tool_calls', [['list', '{}']]), tool(3, 20, 'list')]);
    expect(exit(run)).toEqual({ category: 'budget_exhausted', kind: 'steps' });
  });

  it('a later model call that recorded nothing voids the guess (Google ADK exports the refused call empty)', () => {
    const run = assemble([
      span(1, null, 'invoke_agent coder', 0, 100, { 'gen_ai.operation.name': 'invoke_agent' }),
      span(2, 1, 'call_llm', 10, 15, { 'gen_ai.response.finish_reasons': ['stop'] }),
      span(3, 1, 'call_llm', 20, 25, {}),
    ]);
    expect(exit(run).category).toBe('unknown');
  });

  it('the exception name inside JSON text ends a run whose root never arrived', () => {
    const run = assemble([
      span(
        2,
        99,
        'Agent workflow',
        0,
        50,
        { 'openinference.span.kind': 'CHAIN' },
        {
          statusCode: 2,
          events: [
            event('exception', {
              'exception.message':
                'Error in agent run: {"error":"OutputGuardrailTripwireTriggered: no secrets"}',
            }),
          ],
        },
      ),
    ]);
    expect(run.input.ended).toBe(true);
    expect(exit(run).category).toBe('cancelled');
  });

  it('smolagents: final_answer is the model stopping; all of max_steps used with no answer is the limit', () => {
    const smol = (steps: string[]) =>
      assemble([
        span(1, null, 'agent.run', 0, 100, {
          'openinference.span.kind': 'AGENT',
          'smolagents.max_steps': 2,
        }),
        ...steps.flatMap((name, k) => [
          span(10 + k, 1, `Step ${k + 1}`, 10 + k * 10, 18 + k * 10, {
            'openinference.span.kind': 'CHAIN',
          }),
          span(20 + k, 10 + k, name, 12 + k * 10, 14 + k * 10, {
            'openinference.span.kind': 'TOOL',
            'tool.name': name,
            'input.value': `{"k":${k}}`,
          }),
        ]),
      ]);
    expect(exit(smol(['read_file', 'final_answer'])).category).toBe('model_stopped');
    expect(exit(smol(['read_file', 'read_file']))).toEqual({
      category: 'budget_exhausted',
      kind: 'steps',
    });
    expect(exit(smol(['read_file'])).category).toBe('unknown');
  });
});

describe('tool calls completed from the model call that asked for them', () => {
  it('a Google ADK tool span without arguments takes them, and its failure, from the calls around it', () => {
    const adk = (id: number, start: number, version: string, failedBefore: string | null) => [
      span(id, 1, 'call_llm', start, start + 5, {
        'gen_ai.response.finish_reasons': ['stop'],
        'gcp.vertex.agent.llm_response': JSON.stringify({
          content: {
            parts: [{ functionCall: { id: `c${id}`, name: 'deploy', args: { version } } }],
          },
        }),
        ...(failedBefore === null
          ? {}
          : {
              'gcp.vertex.agent.llm_request': JSON.stringify({
                contents: [
                  {
                    role: 'user',
                    parts: [
                      {
                        functionResponse: {
                          id: failedBefore,
                          name: 'deploy',
                          response: { error: "Error in tool 'deploy': cluster unreachable" },
                        },
                      },
                    ],
                  },
                ],
              }),
            }),
      }),
      span(id + 1, id, 'execute_tool deploy', start + 6, start + 7, {}),
    ];
    const run = assemble([
      span(1, null, 'invoke_agent coder', 0, 100, { 'gen_ai.operation.name': 'invoke_agent' }),
      ...adk(10, 10, '1.0.1', null),
      ...adk(20, 20, '1.0.2', 'c10'),
      span(30, 1, 'call_llm', 30, 35, { 'gen_ai.response.finish_reasons': ['stop'] }),
    ]);
    expect(run.steps.map((s) => [s.action, s.actionArgs])).toEqual([
      ['deploy', '{"version":"1.0.1"}'],
      ['deploy', '{"version":"1.0.2"}'],
    ]);
    expect(run.steps[0]?.actionHash).not.toBe(run.steps[1]?.actionHash);
    expect(run.steps[0]?.errorClass).not.toBeNull();
  });

  it('a tool call whose arguments were recorded nowhere has no action hash: missing is not equal', () => {
    const run = assemble([
      span(1, null, 'invoke_agent', 0, 100, { 'gen_ai.operation.name': 'invoke_agent' }),
      span(2, 1, 'execute_tool deploy', 10, 12, { 'gen_ai.operation.name': 'execute_tool' }),
      span(3, 1, 'execute_tool deploy', 20, 22, { 'gen_ai.operation.name': 'execute_tool' }),
    ]);
    expect(run.steps.map((s) => [s.action, s.actionHash])).toEqual([
      ['deploy', null],
      ['deploy', null],
    ]);
  });

  it('Traceloop: a tool named only by its LangChain class takes its name from the ToolMessage or the request', () => {
    const run = assemble([
      span(1, null, 'invoke_agent coder', 0, 100, { 'gen_ai.operation.name': 'invoke_agent' }),
      span(2, 1, 'workflow RunnableSequence', 5, 9, {
        'traceloop.span.kind': 'workflow',
        'traceloop.entity.output': JSON.stringify({
          lc: 1,
          type: 'constructor',
          id: ['langchain_core', 'messages', 'AIMessage'],
          kwargs: { tool_calls: [{ name: 'deploy', args: { v: 2 }, id: 'c2' }] },
        }),
      }),
      span(3, 1, 'execute_tool DynamicStructuredTool', 10, 12, {
        'gen_ai.operation.name': 'execute_tool',
        'traceloop.entity.input': '{"args":["{\\"path\\":\\"a\\"}"]}',
        'traceloop.entity.output':
          '{"lc":1,"type":"constructor","id":["ToolMessage"],"kwargs":{"content":"x","tool_call_id":"c1","name":"read_file"}}',
      }),
      span(4, 1, 'execute_tool DynamicStructuredTool', 20, 22, {
        'gen_ai.operation.name': 'execute_tool',
        'traceloop.entity.input': '{"args":["{\\"v\\":2}"]}',
      }),
    ]);
    expect(run.steps.map((s) => [s.action, s.actionArgs])).toEqual([
      ['read_file', '{"path":"a"}'],
      ['deploy', '{"v":2}'],
    ]);
  });
});

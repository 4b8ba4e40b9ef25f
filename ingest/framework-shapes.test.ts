// Where real frameworks put agent names, steps, tools and results (docs/frameworks/), span by span.
import { describe, expect, it } from 'vitest';
import { canonicalResultHash } from '../trajectory/result-hash';
import { extractSpanFacts } from './span-facts';
import { assemble, attrs, span } from './test-spans';

const facts = (
  name: string,
  attributes: Parameters<typeof span>[5],
  parent: number | null = null,
) => extractSpanFacts(span(1, parent, name, 0, 1, attributes));

describe('agent names where frameworks put them', () => {
  it.each([
    [
      'Mastra',
      'agent.coder',
      { 'mastra.span.type': 'agent_run', 'gen_ai.agent.id': 'coder' },
      'coder',
    ],
    [
      'OpenInference agent.name',
      'Support agent',
      { 'openinference.span.kind': 'AGENT', 'agent.name': 'Support agent' },
      'Support agent',
    ],
    [
      'OpenInference AGENT span',
      'coder',
      { 'openinference.span.kind': 'AGENT', 'graph.node.id': 'coder' },
      'coder',
    ],
    ['AI SDK functionId', 'ai.generateText', { 'ai.telemetry.functionId': 'coder' }, 'coder'],
    [
      'LangGraph graph name',
      'coder',
      { 'openinference.span.kind': 'CHAIN', metadata: '{"ls_integration":"langgraph"}' },
      'coder',
    ],
  ])('%s', (_framework, name, attributes, agent) => {
    expect(facts(name, attributes).agent).toBe(agent);
  });

  it.each([
    [
      'the OpenAI Agents default trace name',
      'Agent workflow',
      { 'openinference.span.kind': 'AGENT' },
    ],
    [
      'a LangGraph graph left unnamed',
      'LangGraph',
      { 'openinference.span.kind': 'CHAIN', metadata: '{"ls_integration":"langgraph"}' },
    ],
    [
      'a LangGraph node',
      'agent',
      {
        'openinference.span.kind': 'CHAIN',
        metadata: '{"ls_integration":"langgraph","langgraph_step":1}',
      },
    ],
  ])('is not %s', (_what, name, attributes) => {
    expect(facts(name, attributes).agent).toBeUndefined();
  });

  it('a service.name of unknown_service* names no agent', () => {
    const run = (service: string) =>
      assemble([
        span(
          1,
          null,
          'invoke_agent',
          0,
          9,
          { 'gen_ai.operation.name': 'invoke_agent' },
          {
            resource: attrs({ 'service.name': service }),
          },
        ),
      ]).agent;
    expect(run('unknown_service:node')).toBeNull();
    expect(run('orders-agent')).toBe('orders-agent');
  });
});

describe('steps and tools where frameworks put them', () => {
  it('Mastra: `step: N` spans are the steps, `tool.execute <name>` spans the tools', () => {
    const run = assemble([
      span(1, null, 'agent.coder', 0, 100, {
        'mastra.span.type': 'agent_run',
        'gen_ai.agent.id': 'coder',
      }),
      span(2, 1, 'chat gpt-4o', 1, 99, { 'gen_ai.operation.name': 'chat' }),
      ...[0, 1].flatMap((k) => [
        span(10 + k, 2, `step: ${k}`, 10 + k * 20, 25 + k * 20, {
          'gen_ai.operation.name': 'model.step',
        }),
        span(20 + k, 10 + k, 'tool.execute read_file', 12 + k * 20, 14 + k * 20, {
          'gen_ai.operation.name': 'tool.execute',
          'mastra.span.type': 'tool_call',
          'gen_ai.tool.name': 'read_file',
          'gen_ai.tool.input': `{"path":"${k}.ts"}`,
          'gen_ai.tool.output': `file ${k}`,
        }),
      ]),
    ]);
    expect(run.steps.map((s) => [s.index, s.action, s.actionArgs, s.result])).toEqual([
      [1, 'read_file', '{"path":"0.ts"}', 'file 0'],
      [2, 'read_file', '{"path":"1.ts"}', 'file 1'],
    ]);
  });

  it("LangGraph's __start__ node is no super-step", () => {
    const node = (id: number, step: number, name: string) =>
      span(id, 1, name, id * 10, id * 10 + 5, {
        'openinference.span.kind': 'CHAIN',
        metadata: JSON.stringify({ langgraph_step: step, langgraph_node: name }),
      });
    const run = assemble([
      span(1, null, 'coder', 0, 100, { 'openinference.span.kind': 'CHAIN' }),
      node(2, 0, '__start__'),
      node(3, 1, 'agent'),
      node(4, 2, 'tools'),
    ]);
    expect(run.steps.map((s) => [s.index, s.name])).toEqual([
      [1, 'agent'],
      [2, 'tools'],
    ]);
  });

  it('Google ADK: arguments in gcp.vertex.agent.tool_call_args, results in tool_response', () => {
    const f = facts('execute_tool read_file', {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_file',
      'gcp.vertex.agent.tool_call_args': '{"page":1}',
      'gcp.vertex.agent.tool_response': '{"result":"page 1"}',
    });
    expect([f.actionArgs, f.result]).toEqual(['{"page":1}', '{"result":"page 1"}']);
  });

  it('a lone Traceloop runnable span with nothing of a run is a fragment', () => {
    const lone = (name: string, attributes = {}) =>
      assemble([span(1, null, name, 0, 9, { 'traceloop.span.kind': 'workflow', ...attributes })])
        .fragment;
    expect(lone('workflow RunnableSequence')).toBe(true);
    expect(lone('workflow CompiledStateGraph')).toBe(true);
    expect(lone('workflow RunnableSequence', { 'loop.run.id': 'r1' })).toBe(false);
    expect(lone('invoke_agent coder')).toBe(false);
  });
});

describe('result envelopes with per-call ids are peeled to their content', () => {
  it.each([
    [
      'OpenInference LangGraph JS',
      (id: string) =>
        JSON.stringify({
          output: {
            lc: 1,
            type: 'constructor',
            id: ['ToolMessage'],
            kwargs: { content: '// a.ts', tool_call_id: id },
          },
        }),
    ],
    [
      'LangGraph Python',
      (id: string) =>
        JSON.stringify({
          type: 'tool',
          data: { content: '// a.ts', type: 'tool', tool_call_id: id },
        }),
    ],
  ])('%s', (_framework, wrap) => {
    expect(canonicalResultHash(wrap('call_1'))).toBe(canonicalResultHash(wrap('call_2')));
    expect(canonicalResultHash(wrap('call_1'))).toBe(canonicalResultHash('// a.ts'));
  });
});

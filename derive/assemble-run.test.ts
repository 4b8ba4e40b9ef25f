import { describe, expect, it } from 'vitest';
import { assemble, event, span } from '../ingest/test-spans';

const chat = (
  id: number,
  parent: number,
  start: number,
  input: number,
  output: number,
  model = 'gpt-4o',
) =>
  span(id, parent, `chat ${model}`, start, start + 5, {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': model,
    'gen_ai.usage.input_tokens': input,
    'gen_ai.usage.output_tokens': output,
  });

describe('assembleRun', () => {
  it('loop.step spans are the steps; LLM spend inside rolls up once, root totals are not counted again', () => {
    const run = assemble([
      span(1, null, 'invoke_agent', 0, 100, {
        'gen_ai.operation.name': 'invoke_agent',
        'loop.agent': 'a',
        'loop.exit.reason': 'goal_met',
        // run totals under two names at once, as some frameworks send them
        'gen_ai.usage.input_tokens': 3000,
        'gen_ai.usage.prompt_tokens': 3000,
        'gen_ai.usage.output_tokens': 300,
      }),
      span(2, 1, 'step 1', 10, 40, {
        'loop.step': 1,
        'loop.action': 'search',
        'loop.action.args': '{"q":"x"}',
      }),
      chat(3, 2, 11, 1000, 100),
      span(4, 1, 'step 2', 40, 90, { 'loop.step': 2, 'loop.action': 'fetch' }),
      chat(5, 4, 41, 2000, 200),
    ]);
    expect(run.steps.map((s) => [s.index, s.action, s.inputTokens, s.outputTokens])).toEqual([
      [1, 'search', 1000, 100],
      [2, 'fetch', 2000, 200],
    ]);
    expect(run.spend.inputTokens).toBe(3000);
    expect(run.spend.outputTokens).toBe(300);
    // gpt-4o: $2.50 in, $10 out per million
    expect(run.spend.costUsd).toBeCloseTo((3000 * 2.5 + 300 * 10) / 1e6, 12);
    expect(run.input).toMatchObject({
      ended: true,
      exitReason: { raw: 'goal_met', source: 'attribute' },
    });
  });

  it('an explicit loop.cost_usd covers its subtree; a model without a price is reported, never zero silently', () => {
    const run = assemble([
      span(1, null, 'agent', 0, 100, { 'loop.exit.reason': 'goal_met' }),
      span(2, 1, 'step', 1, 50, { 'loop.step': 1, 'loop.action': 'a', 'loop.cost_usd': 0.5 }),
      chat(3, 2, 2, 1000, 100),
      span(4, 1, 'step', 50, 99, { 'loop.step': 2, 'loop.action': 'b' }),
      chat(5, 4, 51, 1000, 100, 'mystery-model-7'),
    ]);
    expect(run.steps.map((s) => s.costUsd)).toEqual([0.5, 0]);
    expect(run.unpricedModels).toEqual(['mystery-model-7']);
  });

  it('an explicit cost above an unpriced model prices it: the spend is complete', () => {
    const run = assemble([
      span(1, null, 'agent', 0, 100, { 'loop.exit.reason': 'goal_met' }),
      span(2, 1, 'step', 1, 50, { 'loop.step': 1, 'loop.action': 'a', 'loop.cost_usd': 0.25 }),
      chat(3, 2, 2, 1000, 100, 'mystery-model-7'),
    ]);
    expect(run.spend.costUsd).toBe(0.25);
    expect(run.unpricedModels).toEqual([]);
  });

  it('Strands: loop-cycle spans are steps, tool input and output arrive as events', () => {
    const tool = (id: number, parent: number, start: number, city: string, result: string) =>
      span(
        id,
        parent,
        'execute_tool get_weather',
        start,
        start + 3,
        { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_weather' },
        {
          events: [
            event('gen_ai.tool.message', { role: 'tool', content: JSON.stringify({ city }) }),
            event('gen_ai.choice', { message: result }),
          ],
        },
      );
    const run = assemble([
      span(
        1,
        null,
        'invoke_agent weather',
        0,
        100,
        { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'weather' },
        {
          events: [event('gen_ai.choice', { finish_reason: 'end_turn' })],
        },
      ),
      span(2, 1, 'execute_event_loop_cycle', 1, 40, { 'agent_loop.cycle_id': 'c1' }),
      chat(3, 2, 2, 500, 50, 'claude-sonnet-4'),
      tool(4, 2, 10, 'Paris', '{"temp": 21}'),
      span(5, 1, 'execute_event_loop_cycle', 41, 90, { 'agent_loop.cycle_id': 'c2' }),
      chat(6, 5, 42, 600, 60, 'claude-sonnet-4'),
      tool(7, 5, 50, ' Paris', '{"temp":21}'),
    ]);
    expect(run.agent).toBe('weather');
    expect(run.steps).toHaveLength(2);
    expect(run.steps[0]).toMatchObject({
      index: 1,
      action: 'get_weather',
      actionArgs: '{"city":"Paris"}',
      inputTokens: 500,
    });
    expect(run.steps[0]?.actionHash).toBe(run.steps[1]?.actionHash);
    expect(run.steps[0]?.resultHash).toBe(run.steps[1]?.resultHash);
    expect(run.input.exitReason).toEqual({ raw: 'end_turn', source: 'finish_reason' });
  });

  it('OpenAI Agents via OpenInference: the root never arrives; the top span’s exception ends the run', () => {
    const missingRoot = 0x99;
    const run = assemble([
      span(
        2,
        missingRoot,
        'Agent triage',
        0,
        80,
        { 'openinference.span.kind': 'AGENT', 'input.value': 'Refund order 1234' },
        {
          statusCode: 2,
          statusMessage: 'Max turns (3) exceeded',
          events: [
            event('exception', {
              'exception.type': 'MaxTurnsExceeded',
              'exception.message': 'Max turns (3) exceeded',
            }),
          ],
        },
      ),
      span(3, 2, 'lookup_order', 10, 20, {
        'openinference.span.kind': 'TOOL',
        'tool.name': 'lookup_order',
        'input.value': '{"id":1234}',
      }),
      span(4, 2, 'lookup_order', 30, 40, {
        'openinference.span.kind': 'TOOL',
        'tool.name': 'lookup_order',
        'input.value': '{"id": 1234}',
      }),
    ]);
    expect(run.rootSpanId).toBeNull();
    expect(run.input).toMatchObject({
      ended: true,
      exitReason: { raw: 'MaxTurnsExceeded', source: 'exception' },
    });
    expect(run.goal).toBe('Refund order 1234');
    expect(run.steps.map((s) => s.action)).toEqual(['lookup_order', 'lookup_order']);
    expect(run.steps[0]?.actionHash).toBe(run.steps[1]?.actionHash);
  });

  it('Vercel AI SDK v6: each doGenerate is a step; sibling tool calls join it by call id', () => {
    const run = assemble([
      span(1, null, 'ai.generateText', 0, 100, {
        'ai.response.finishReason': 'stop',
        'ai.usage.promptTokens': 300,
        'ai.usage.completionTokens': 30,
        'ai.prompt': '{"prompt":"Book a table"}',
      }),
      span(2, 1, 'ai.generateText.doGenerate', 1, 20, {
        'ai.response.toolCalls': JSON.stringify([
          {
            toolCallType: 'function',
            toolCallId: 'call_1',
            toolName: 'search',
            args: '{"q":"bistro"}',
          },
        ]),
        'ai.usage.promptTokens': 100,
        'ai.usage.completionTokens': 10,
        'gen_ai.request.model': 'gpt-4o',
      }),
      span(
        3,
        1,
        'ai.toolCall',
        21,
        30,
        {
          'ai.toolCall.name': 'search',
          'ai.toolCall.id': 'call_1',
          'ai.toolCall.args': '{"q":"bistro"}',
          'ai.toolCall.result': '["Chez A"]',
        },
        { statusCode: 2, statusMessage: 'rate limited (429)' },
      ),
      span(4, 1, 'ai.generateText.doGenerate', 31, 60, {
        'ai.usage.promptTokens': 200,
        'ai.usage.completionTokens': 20,
        'gen_ai.request.model': 'gpt-4o',
        'ai.response.finishReason': 'stop',
      }),
    ]);
    expect(run.steps.map((s) => [s.index, s.action, s.inputTokens])).toEqual([
      [1, 'search', 100],
      [2, null, 200],
    ]);
    expect(run.steps[0]).toMatchObject({ result: '["Chez A"]', errorClass: 'transient' });
    expect(run.steps[0]?.resultHash).not.toBeNull();
    expect(run.spend.inputTokens).toBe(300);
    expect(run.goal).toBe('Book a table');
    expect(run.input.exitReason).toEqual({ raw: 'stop', source: 'finish_reason' });
  });

  it('LangGraph: nodes of one super-step (langgraph_step in metadata) are one step', () => {
    const meta = (step: number, node: string) =>
      JSON.stringify({ langgraph_step: step, langgraph_node: node });
    const run = assemble([
      span(1, null, 'LangGraph', 0, 100, { 'openinference.span.kind': 'CHAIN' }),
      span(2, 1, 'agent', 1, 20, {
        'openinference.span.kind': 'CHAIN',
        metadata: meta(1, 'agent'),
      }),
      chat(3, 2, 2, 100, 10),
      span(4, 1, 'tools', 21, 40, {
        'openinference.span.kind': 'CHAIN',
        metadata: meta(2, 'tools'),
      }),
      span(5, 4, 'search', 22, 30, {
        'openinference.span.kind': 'TOOL',
        'tool.name': 'search',
        'input.value': '{"q":"a"}',
      }),
      span(6, 1, 'review', 41, 60, {
        'openinference.span.kind': 'CHAIN',
        metadata: meta(3, 'review'),
      }),
      chat(7, 6, 42, 100, 10),
      span(8, 1, 'summarise', 41, 70, {
        'openinference.span.kind': 'CHAIN',
        metadata: meta(3, 'summarise'),
      }),
      chat(9, 8, 43, 100, 10),
    ]);
    expect(run.steps.map((s) => [s.index, s.name, s.action, s.inputTokens])).toEqual([
      [1, 'agent', null, 100],
      [2, 'tools', 'search', 0],
      [3, 'review', null, 200],
    ]);
  });

  it('without loop-cycle spans, each tool call is a step', () => {
    const run = assemble([
      span(1, null, 'agent', 0, 100, {}),
      span(2, 1, 'execute_tool ls', 1, 2, {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'ls',
        'gen_ai.tool.call.arguments': '{"path":"/"}',
      }),
      span(3, 1, 'execute_tool cat', 3, 4, {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'cat',
        'gen_ai.tool.call.arguments': '{"path":"/a"}',
      }),
    ]);
    expect(run.steps.map((s) => [s.index, s.action, s.actionArgs])).toEqual([
      [1, 'ls', '{"path":"/"}'],
      [2, 'cat', '{"path":"/a"}'],
    ]);
    expect(run.input).toMatchObject({ ended: true, exitReason: null });
  });

  it('a root in ERROR takes its reason from an exception anywhere below', () => {
    const run = assemble([
      span(1, null, 'graph', 0, 100, {}, { statusCode: 2, statusMessage: '' }),
      span(
        2,
        1,
        'node',
        1,
        90,
        {},
        {
          statusCode: 2,
          events: [
            event('exception', {
              'exception.type': 'GraphRecursionError',
              'exception.message': 'Recursion limit of 25 reached',
            }),
          ],
        },
      ),
    ]);
    expect(run.input).toMatchObject({
      exitReason: { raw: 'GraphRecursionError', source: 'exception' },
      exitDetail: 'Recursion limit of 25 reached',
    });
  });

  it('a run whose root never arrives stays running, and ends unknown once idle', () => {
    const spans = [span(2, 0x77, 'step', 0, 10, { 'loop.step': 1, 'loop.action': 'a' })];
    expect(assemble(spans).input.ended).toBe(false);
    expect(assemble(spans, { idle: true }).input).toMatchObject({ ended: true, exitReason: null });
  });

  it('steps carry the verify stage from inside them, and the latest observation wins', () => {
    const run = assemble([
      span(1, null, 'agent', 0, 100, { 'loop.exit.reason': 'goal_met' }),
      span(2, 1, 'step 1', 1, 50, { 'loop.step': 1, 'loop.action': 'edit' }),
      span(3, 2, 'observe', 10, 20, { 'loop.state.hash': 'S1', 'loop.progress': 4 }),
      span(4, 2, 'verify', 30, 40, {
        'loop.verdict': 'fail',
        'loop.verdict.source': 'environment',
        'loop.verdict.fields': '{"tests":false,"lint":true}',
        'loop.state.hash': 'S2',
      }),
    ]);
    expect(run.steps[0]).toMatchObject({
      stateHash: 'S2',
      progress: 4,
      verdict: 'fail',
      verdictSource: 'environment',
      verdictFields: { tests: false, lint: true },
    });
  });

  it('a trace of one LLM call with nothing of a run is a fragment, not a run of its own', () => {
    const call = (extra: Record<string, string>) =>
      span(1, null, 'ChatOpenAI.chat', 0, 10, {
        'llm.request.type': 'chat',
        'gen_ai.usage.input_tokens': 10,
        ...extra,
      });
    expect(assemble([call({})]).fragment).toBe(true);
    expect(assemble([call({ 'loop.run.id': 'r1' })]).fragment).toBe(false);
    expect(
      assemble([span(1, null, 'invoke_agent', 0, 10, { 'gen_ai.operation.name': 'invoke_agent' })])
        .fragment,
    ).toBe(false);
    expect(assemble([call({}), chat(2, 1, 1, 5, 5)]).fragment).toBe(false);
  });
});

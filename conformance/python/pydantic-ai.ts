// PydanticAI with instrumentation version 5 (the default), as capabilities/instrumentation.py and
// _instrumentation.py emit: `invoke_agent {agent}` > `chat {model}` (CLIENT) and
// `execute_tool {tool}`, all GenAI names. The run span carries the aggregated usage; a raised
// exception is an exception event with ERROR "<Type>: <message>" (OTel's start_as_current_span).
import { pyJson, pythonResource } from './otlp-json';
import type { SpanSpec } from './otlp-json';
import { TURN_MS, uuid } from './scenario';
import type { Turn } from './scenario';

export const PYDANTIC_AI = {
  framework: 'python-pydantic-ai',
  packages: { 'pydantic-ai-slim': '2.33.0' },
  source: 'pydantic/pydantic-ai@4fda38988f2939fa6ea9cdefcf120693e10ef491',
  files:
    'pydantic_ai_slim/pydantic_ai/capabilities/instrumentation.py, pydantic_ai_slim/pydantic_ai/_instrumentation.py, pydantic_ai_slim/pydantic_ai/models/instrumented.py, pydantic_ai_slim/pydantic_ai/usage.py',
};

export const pydanticAiScope = { name: 'pydantic-ai', version: '2.33.0' };
export const pydanticAiResource = (service: string) => pythonResource(service);

const MODEL = 'gpt-4o';

export interface PydanticAiRun {
  agent: string;
  goal: string;
  turns: Turn[];
  /** The run raised this (UsageLimitExceeded): type and message. */
  raised?: { type: string; message: string };
  /** The last turn's tool raised ApprovalRequired: the run ends with DeferredToolRequests. */
  approvalOnLastTool?: boolean;
}

export function pydanticAiSpans(run: PydanticAiRun): SpanSpec[] {
  const endMs = run.turns.length * TURN_MS + 40;
  const totals = run.turns.reduce(
    (sum, t) => ({ i: sum.i + t.inputTokens, o: sum.o + t.outputTokens }),
    { i: 0, o: 0 },
  );
  const lastTool = run.turns.at(-1)?.tool;
  const finalResult = run.approvalOnLastTool
    ? pyJson({
        calls: [],
        approvals: [{ tool_name: lastTool?.name, args: lastTool?.args, tool_call_id: 'call_last' }],
      })
    : run.turns.at(-1)?.text;
  const root: SpanSpec = {
    name: `invoke_agent ${run.agent}`,
    startMs: 0,
    endMs,
    attributes: {
      model_name: MODEL,
      agent_name: run.agent,
      'gen_ai.agent.name': run.agent,
      'gen_ai.agent.call.id': uuid(4242),
      'gen_ai.conversation.id': uuid(4343),
      'gen_ai.operation.name': 'invoke_agent',
      'logfire.msg': `${run.agent} run`,
      ...(run.raised || finalResult === undefined ? {} : { final_result: finalResult }),
      'pydantic_ai.all_messages': pyJson([
        { role: 'user', parts: [{ type: 'text', content: run.goal }] },
      ]),
      'gen_ai.usage.input_tokens': totals.i,
      'gen_ai.usage.output_tokens': totals.o,
      'logfire.json_schema': pyJson({
        type: 'object',
        properties: { pydantic_ai: { type: 'object' } },
      }),
    },
    events: run.raised
      ? [
          {
            name: 'exception',
            atMs: endMs - 1,
            attributes: {
              'exception.type': `pydantic_ai.exceptions.${run.raised.type}`,
              'exception.message': run.raised.message,
              'exception.stacktrace': `Traceback (most recent call last):\n  File "pydantic_ai/usage.py", line 496, in check_before_request\npydantic_ai.exceptions.${run.raised.type}: ${run.raised.message}`,
              'exception.escaped': 'False',
            },
          },
        ]
      : [],
    status: run.raised
      ? { code: 'ERROR', message: `${run.raised.type}: ${run.raised.message}` }
      : undefined,
  };
  const spans: SpanSpec[] = [root];
  run.turns.forEach((turn, k) => {
    const t0 = k * TURN_MS + 10;
    const last = k === run.turns.length - 1;
    const callId =
      last && run.approvalOnLastTool ? 'call_last' : `call_${(k + 1).toString().padStart(4, '0')}`;
    const outputParts = turn.tool
      ? [{ type: 'tool_call', id: callId, name: turn.tool.name, arguments: turn.tool.args }]
      : [{ type: 'text', content: turn.text }];
    spans.push({
      name: `chat ${MODEL}`,
      parent: root,
      kind: 'CLIENT',
      startMs: t0,
      endMs: t0 + 600,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'openai',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': MODEL,
        'server.address': 'api.openai.com',
        'gen_ai.agent.name': run.agent,
        'gen_ai.agent.call.id': uuid(4242),
        'gen_ai.conversation.id': uuid(4343),
        'logfire.json_schema': pyJson({ type: 'object', properties: {} }),
        'gen_ai.input.messages': pyJson([
          { role: 'user', parts: [{ type: 'text', content: run.goal }] },
        ]),
        'gen_ai.output.messages': pyJson([
          {
            role: 'assistant',
            parts: outputParts,
            finish_reason: turn.tool ? 'tool_call' : 'stop',
          },
        ]),
        'gen_ai.usage.input_tokens': turn.inputTokens,
        'gen_ai.usage.output_tokens': turn.outputTokens,
        'gen_ai.response.model': 'gpt-4o-2024-08-06',
        'gen_ai.response.id': `chatcmpl-${k + 1}`,
        'gen_ai.response.finish_reasons': [turn.tool ? 'tool_call' : 'stop'],
      },
    });
    if (!turn.tool) return;
    const failed = turn.tool.error !== undefined;
    const deferred = last && run.approvalOnLastTool;
    const retryPrompt = `${turn.tool.error}\n\nFix the errors and try again.`;
    spans.push({
      name: `execute_tool ${turn.tool.name}`,
      parent: root,
      startMs: t0 + 650,
      endMs: t0 + 900,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': turn.tool.name,
        'gen_ai.tool.call.id': callId,
        'gen_ai.tool.call.arguments': JSON.stringify(turn.tool.args),
        'gen_ai.agent.name': run.agent,
        'gen_ai.agent.call.id': uuid(4242),
        'gen_ai.conversation.id': uuid(4343),
        'logfire.msg': `running tool: ${turn.tool.name}`,
        'logfire.json_schema': pyJson({
          type: 'object',
          properties: {
            'gen_ai.tool.call.arguments': { type: 'object' },
            'gen_ai.tool.call.result': { type: 'object' },
            'gen_ai.tool.name': {},
            'gen_ai.tool.call.id': {},
          },
        }),
        ...(deferred
          ? { 'pydantic_ai.tool.deferral.name': 'ApprovalRequired' }
          : { 'gen_ai.tool.call.result': failed ? retryPrompt : turn.tool.result }),
      },
      events: failed
        ? [
            {
              name: 'exception',
              atMs: t0 + 899,
              attributes: {
                'exception.type': 'pydantic_ai.exceptions.ToolRetryError',
                'exception.message': turn.tool.error!,
                'exception.stacktrace': `Traceback (most recent call last):\n  File "tools.py", line 14, in deploy\npydantic_ai.exceptions.ModelRetry: ${turn.tool.error}`,
                'exception.escaped': 'True',
              },
            },
          ]
        : [],
      status: failed ? { code: 'ERROR' } : undefined,
    });
  });
  return spans;
}

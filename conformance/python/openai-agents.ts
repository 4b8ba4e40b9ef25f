// OpenAI Agents (Python) through OpenInference's TracingProcessor (_processor.py): the SDK's own
// trace becomes a root span named after the trace ("Agent workflow"), its agent span a child
// named after the agent; `response` (LLM), function (TOOL, named after the tool) and guardrail
// (GUARDRAIL) spans hang under the agent span. No span per turn. A SpanError becomes the span's
// ERROR status "<message>: <data as a Python dict>"; no exception events are recorded.
import { pyJson, pythonResource } from './otlp-json';
import type { SpanSpec } from './otlp-json';
import { TURN_MS } from './scenario';
import type { Turn } from './scenario';

export const OPENAI_AGENTS = {
  framework: 'python-openai-agents',
  packages: { 'openai-agents': '0.22.0', 'openinference-instrumentation-openai-agents': '2.0.0' },
  source:
    'openai/openai-agents-python@7f7a44f8dc0650296bd5ab6c745c9bcbaa6ac3b7 and Arize-ai/openinference@1fe497f1d9f45a07eee55d97fe185e020560f9c7',
  files:
    'src/agents/run.py, src/agents/run_internal/{guardrails,tool_execution}.py, src/agents/tool.py; python/instrumentation/openinference-instrumentation-openai-agents/src/openinference/instrumentation/openai_agents/_processor.py',
};

export const openaiAgentsScope = {
  name: 'openinference.instrumentation.openai_agents',
  version: '2.0.0',
};
export const openaiAgentsResource = (service: string) => pythonResource(service);

const MODEL = 'gpt-4.1-2025-04-14';

export interface OpenAiAgentsRun {
  agent: string;
  goal: string;
  turns: Turn[];
  /** A SpanError the run attached to the agent span: message and Python-repr data. */
  agentError?: string;
  /** Input guardrails that ran (name, tripped). */
  guardrails?: { name: string; triggered: boolean }[];
  /** The last turn's tool needs approval: the run returns with interruptions, the tool unrun. */
  approvalPendingOnLastTool?: boolean;
}

export function openaiAgentsSpans(run: OpenAiAgentsRun): SpanSpec[] {
  const endMs = run.turns.length * TURN_MS + 60;
  const root: SpanSpec = {
    name: 'Agent workflow',
    startMs: 0,
    endMs,
    attributes: { 'openinference.span.kind': 'AGENT' },
    status: { code: 'OK' },
  };
  const agent: SpanSpec = {
    name: run.agent,
    parent: root,
    startMs: 5,
    endMs: endMs - 5,
    attributes: {
      'openinference.span.kind': 'AGENT',
      'graph.node.id': run.agent,
      'agent.name': run.agent,
    },
    status: run.agentError ? { code: 'ERROR', message: run.agentError } : { code: 'OK' },
  };
  const spans: SpanSpec[] = [root, agent];
  for (const guardrail of run.guardrails ?? []) {
    spans.push({
      name: guardrail.name,
      parent: agent,
      startMs: 8,
      endMs: 200,
      attributes: { 'openinference.span.kind': 'GUARDRAIL' },
      status: { code: 'OK' },
    });
  }
  run.turns.forEach((turn, k) => {
    const t0 = k * TURN_MS + 10;
    const callId = `call_${(k + 1).toString().padStart(4, '0')}`;
    const output = turn.tool
      ? [
          {
            type: 'function_call',
            call_id: callId,
            name: turn.tool.name,
            arguments: JSON.stringify(turn.tool.args),
          },
        ]
      : [
          {
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text', text: turn.text }],
          },
        ];
    const usage = {
      input_tokens: turn.inputTokens,
      output_tokens: turn.outputTokens,
      total_tokens: turn.inputTokens + turn.outputTokens,
    };
    spans.push({
      name: 'response',
      parent: agent,
      startMs: t0,
      endMs: t0 + 600,
      attributes: {
        'openinference.span.kind': 'LLM',
        'llm.system': 'openai',
        'output.mime_type': 'application/json',
        'output.value': JSON.stringify({ id: `resp_${k + 1}`, model: MODEL, output, usage }),
        'llm.token_count.completion': turn.outputTokens,
        'llm.token_count.prompt': turn.inputTokens,
        'llm.token_count.total': turn.inputTokens + turn.outputTokens,
        'llm.token_count.prompt_details.cache_read': 0,
        'llm.token_count.completion_details.reasoning': 0,
        'llm.output_messages.0.message.role': 'assistant',
        ...(turn.tool
          ? {
              'llm.output_messages.0.message.tool_calls.0.tool_call.id': callId,
              'llm.output_messages.0.message.tool_calls.0.tool_call.function.name': turn.tool.name,
              'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments':
                JSON.stringify(turn.tool.args),
            }
          : { 'llm.output_messages.0.message.contents.0.message_content.text': turn.text ?? '' }),
        'llm.model_name': MODEL,
        'llm.invocation_parameters': pyJson({ model: MODEL, parallel_tool_calls: false }),
        'input.mime_type': 'application/json',
        'input.value': pyJson([{ content: run.goal, role: 'user' }]),
        'llm.input_messages.1.message.role': 'user',
        'llm.input_messages.1.message.content': run.goal,
      },
      status: { code: 'OK' },
    });
    if (!turn.tool) return;
    if (run.approvalPendingOnLastTool && k === run.turns.length - 1) return;
    const failed = turn.tool.error !== undefined;
    spans.push({
      name: turn.tool.name,
      parent: agent,
      startMs: t0 + 650,
      endMs: t0 + 900,
      attributes: {
        'openinference.span.kind': 'TOOL',
        'tool.name': turn.tool.name,
        'input.value': JSON.stringify(turn.tool.args),
        'input.mime_type': 'application/json',
        'output.value': failed
          ? `An error occurred while running the tool. Please try again. Error: ${turn.tool.error}`
          : turn.tool.result,
      },
      status: failed
        ? {
            code: 'ERROR',
            message: `Error running tool (non-fatal): {'tool_name': '${turn.tool.name}', 'error': '${turn.tool.error}'}`,
          }
        : { code: 'OK' },
    });
  });
  return spans;
}

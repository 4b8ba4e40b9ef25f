// LangGraph (Python) through OpenInference's LangChain tracer (_tracer.py): one span per LangChain
// run, named after the run. The graph is a CHAIN named "LangGraph"; each node run is a span with
// `metadata` JSON carrying langgraph_step / langgraph_node (a node whose name contains "agent"
// is marked AGENT); model runs are LLM spans with llm.finish_reason, tool runs TOOL spans whose
// input.value is Python's str() of the arguments and whose output.value is the serialised
// ToolMessage. Errors are exception events; GraphInterrupt keeps the span OK.
import { pyJson, pythonResource } from './otlp-json';
import type { SpanSpec } from './otlp-json';
import { TURN_MS, uuid } from './scenario';
import type { Turn } from './scenario';

export const LANGGRAPH = {
  framework: 'python-langgraph',
  packages: { langgraph: '1.2.11', 'openinference-instrumentation-langchain': '0.1.70' },
  source:
    'langchain-ai/langgraph@f09cfe8ffc1eeffd68f4b628ed69c30f7cad229f and Arize-ai/openinference@1fe497f1d9f45a07eee55d97fe185e020560f9c7',
  files:
    'libs/langgraph/langgraph/pregel/{main,_loop,_algo}.py; python/instrumentation/openinference-instrumentation-langchain/src/openinference/instrumentation/langchain/_tracer.py',
};

export const langgraphScope = {
  name: 'openinference.instrumentation.langchain',
  version: '0.1.70',
};
export const langgraphResource = (service: string) => pythonResource(service);

const MODEL = 'gpt-4o-2024-08-06';

/** Python's repr of a flat dict of strings and numbers, as str(tool_input) gives it. */
const pyRepr = (args: Record<string, unknown>) =>
  `{${Object.entries(args)
    .map(([k, v]) => `'${k}': ${typeof v === 'string' ? `'${v}'` : String(v)}`)
    .join(', ')}}`;

export interface LangGraphRun {
  goal: string;
  turns: Turn[];
  /** The graph raised (GraphRecursionError): its message. */
  recursionLimit?: number;
  /** The last turn's tool called interrupt(): the run stops waiting for a person. */
  interruptLastTool?: string;
}

export function langgraphSpans(run: LangGraphRun): SpanSpec[] {
  const steps = run.turns.flatMap((turn, k) => [
    { node: 'agent', turn, k },
    ...(turn.tool ? [{ node: 'tools', turn, k }] : []),
  ]);
  const limited = run.recursionLimit !== undefined ? steps.slice(0, run.recursionLimit) : steps;
  const endMs = limited.length * (TURN_MS / 2) + 60;
  const recursionMessage =
    run.recursionLimit === undefined
      ? undefined
      : `Recursion limit of ${run.recursionLimit} reached without hitting a stop condition. You can increase the limit by setting the \`recursion_limit\` config key.\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/GRAPH_RECURSION_LIMIT`;
  const root: SpanSpec = {
    name: 'LangGraph',
    startMs: 0,
    endMs,
    attributes: {
      'openinference.span.kind': 'CHAIN',
      'input.value': pyJson({ messages: [{ role: 'user', content: run.goal }] }),
      'input.mime_type': 'application/json',
    },
    events: recursionMessage
      ? [
          {
            name: 'exception',
            atMs: endMs - 1,
            attributes: {
              'exception.type': 'langgraph.errors.GraphRecursionError',
              'exception.message': recursionMessage,
              'exception.stacktrace': `Traceback (most recent call last):\n  File "langgraph/pregel/main.py", line 3011, in stream\nlanggraph.errors.GraphRecursionError: ${recursionMessage}`,
              'exception.escaped': 'False',
            },
          },
        ]
      : [],
    status: recursionMessage
      ? { code: 'ERROR', message: `GraphRecursionError('${recursionMessage}')` }
      : { code: 'OK' },
  };
  const spans: SpanSpec[] = [root];
  limited.forEach(({ node, turn, k }, index) => {
    const step = index + 1;
    const t0 = index * (TURN_MS / 2) + 10;
    const metadata = {
      langgraph_step: step,
      langgraph_node: node,
      langgraph_triggers: [
        node === 'agent' ? (step === 1 ? 'branch:to:agent' : 'tools') : 'branch:to:tools',
      ],
      langgraph_path: ['__pregel_pull', node],
      langgraph_checkpoint_ns: `${node}:${uuid(7000 + step)}`,
    };
    const interrupted = node === 'tools' && k === run.turns.length - 1 && run.interruptLastTool;
    const interruptEvent = (atMs: number) => ({
      name: 'exception',
      atMs,
      attributes: {
        'exception.type': 'langgraph.errors.GraphInterrupt',
        'exception.message': `(Interrupt(value='${run.interruptLastTool}', id='${uuid(9000).replace(/-/g, '')}'),)`,
        'exception.stacktrace':
          'Traceback (most recent call last):\n  File "langgraph/types.py", line 530, in interrupt\nlanggraph.errors.GraphInterrupt',
        'exception.escaped': 'False',
      },
    });
    const nodeSpan: SpanSpec = {
      name: node,
      parent: root,
      startMs: t0,
      endMs: t0 + 480,
      attributes: {
        'openinference.span.kind': node === 'agent' ? 'AGENT' : 'CHAIN',
        metadata: pyJson(metadata),
      },
      events: interrupted ? [interruptEvent(t0 + 479)] : [],
      status: { code: 'OK' },
    };
    spans.push(nodeSpan);
    const callId = `call_${(k + 1).toString().padStart(4, '0')}`;
    if (node === 'agent') {
      spans.push({
        name: 'ChatOpenAI',
        parent: nodeSpan,
        startMs: t0 + 5,
        endMs: t0 + 470,
        attributes: {
          'openinference.span.kind': 'LLM',
          'llm.system': 'openai',
          'llm.provider': 'openai',
          'llm.model_name': MODEL,
          'llm.token_count.prompt': turn.inputTokens,
          'llm.token_count.completion': turn.outputTokens,
          'llm.token_count.total': turn.inputTokens + turn.outputTokens,
          'llm.finish_reason': turn.tool ? 'tool_calls' : 'stop',
          'llm.output_messages.0.message.role': 'assistant',
          ...(turn.tool
            ? {
                'llm.output_messages.0.message.tool_calls.0.tool_call.id': callId,
                'llm.output_messages.0.message.tool_calls.0.tool_call.function.name':
                  turn.tool.name,
                'llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments':
                  JSON.stringify(turn.tool.args),
              }
            : { 'llm.output_messages.0.message.content': turn.text ?? '' }),
          metadata: pyJson({
            ...metadata,
            ls_provider: 'openai',
            ls_model_name: 'gpt-4o',
            ls_model_type: 'chat',
          }),
        },
        status: { code: 'OK' },
      });
      return;
    }
    const tool = turn.tool!;
    const failed = tool.error !== undefined;
    const message = {
      type: 'tool',
      data: {
        content: failed
          ? `Error: ToolException('${tool.error}')\n Please fix your mistakes.`
          : tool.result,
        additional_kwargs: {},
        response_metadata: {},
        type: 'tool',
        name: tool.name,
        id: null,
        tool_call_id: callId,
        artifact: null,
        status: failed ? 'error' : 'success',
      },
    };
    spans.push({
      name: tool.name,
      parent: nodeSpan,
      startMs: t0 + 5,
      endMs: t0 + 470,
      attributes: {
        'openinference.span.kind': 'TOOL',
        'input.value': pyRepr(tool.args),
        'input.mime_type': 'application/json',
        ...(interrupted ? {} : { 'output.value': pyJson(message) }),
        ...(interrupted ? {} : { 'output.mime_type': 'application/json' }),
        'tool.name': tool.name,
        'tool.description': `${tool.name} tool`,
        metadata: pyJson(metadata),
      },
      events: interrupted
        ? [interruptEvent(t0 + 469)]
        : failed
          ? [
              {
                name: 'exception',
                atMs: t0 + 469,
                attributes: {
                  'exception.type': 'langchain_core.tools.base.ToolException',
                  'exception.message': tool.error!,
                  'exception.stacktrace': `Traceback (most recent call last):\n  File "tools.py", line 9, in deploy\nlangchain_core.tools.base.ToolException: ${tool.error}`,
                  'exception.escaped': 'False',
                },
              },
            ]
          : [],
      status: failed
        ? {
            code: 'ERROR',
            message: `ToolException('${tool.error}')\n\nTraceback (most recent call last):\n  ...`,
          }
        : { code: 'OK' },
    });
  });
  return spans;
}

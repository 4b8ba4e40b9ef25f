// smolagents through OpenInference's smolagents instrumentation (_wrappers.py): `{agent}.run`
// (AGENT, with smolagents.max_steps and the run's token totals) > `Step N` (CHAIN) > the model's
// `{ModelClass}.generate` (LLM) and one TOOL span per call, named after the tool's class (a
// @tool function's class is SimpleTool; `tool.name` names it). A failing tool's span records the
// exception; its step stays OK with an `agent.step_recovery` event. At max_steps the agent asks
// the model for a final answer outside any step and names the limit nowhere in the trace.
import { pyJson, pythonResource } from './otlp-json';
import type { SpanSpec } from './otlp-json';
import { TURN_MS } from './scenario';
import type { Turn } from './scenario';

export const SMOLAGENTS = {
  framework: 'python-smolagents',
  packages: { smolagents: '1.26.0', 'openinference-instrumentation-smolagents': '0.1.34' },
  source:
    'huggingface/smolagents@e3a5b8994b301983b91c0325546e9dc82eab8cf0 and Arize-ai/openinference@1fe497f1d9f45a07eee55d97fe185e020560f9c7',
  files:
    'src/smolagents/agents.py; python/instrumentation/openinference-instrumentation-smolagents/src/openinference/instrumentation/smolagents/_wrappers.py',
};

export const smolagentsScope = {
  name: 'openinference.instrumentation.smolagents',
  version: '0.1.34',
};
export const smolagentsResource = (service: string) => pythonResource(service);

const MODEL = 'gpt-4o';

export interface SmolagentsRun {
  agent: string;
  goal: string;
  maxSteps: number;
  /** Turns run as steps; a turn without a tool ends the run through the final_answer tool. */
  turns: Turn[];
  /** max_steps reached: one more model call, outside any step, gives the final answer. */
  forcedFinalAnswer?: Turn;
}

export function smolagentsSpans(run: SmolagentsRun): SpanSpec[] {
  const all = [...run.turns, ...(run.forcedFinalAnswer ? [run.forcedFinalAnswer] : [])];
  const endMs = all.length * TURN_MS + 40;
  const totals = all.reduce((sum, t) => ({ i: sum.i + t.inputTokens, o: sum.o + t.outputTokens }), {
    i: 0,
    o: 0,
  });
  const answer = all.at(-1)?.text ?? '';
  const root: SpanSpec = {
    name: `${run.agent}.run`,
    startMs: 0,
    endMs,
    attributes: {
      'openinference.span.kind': 'AGENT',
      'input.value': pyJson({ task: run.goal, stream: false, reset: true }),
      'smolagents.max_steps': run.maxSteps,
      'smolagents.tools_names': ['read_file', 'deploy', 'final_answer'],
      'output.value': answer,
      'llm.token_count.prompt': totals.i,
      'llm.token_count.completion': totals.o,
      'llm.token_count.total': totals.i + totals.o,
    },
    status: { code: 'OK' },
  };
  const spans: SpanSpec[] = [root];
  const model = (turn: Turn, parent: SpanSpec, t0: number): SpanSpec => ({
    name: 'OpenAIServerModel.generate',
    parent,
    startMs: t0 + 5,
    endMs: t0 + 600,
    attributes: {
      'openinference.span.kind': 'LLM',
      'llm.token_count.prompt': turn.inputTokens,
      'llm.token_count.completion': turn.outputTokens,
      'llm.token_count.total': turn.inputTokens + turn.outputTokens,
      'llm.model_name': MODEL,
      'llm.provider': 'openai',
      'llm.output_messages.0.message.role': 'assistant',
      'output.value': turn.tool
        ? pyJson({ name: turn.tool.name, arguments: turn.tool.args })
        : (turn.text ?? ''),
    },
    status: { code: 'OK' },
  });
  run.turns.forEach((turn, k) => {
    const t0 = k * TURN_MS + 10;
    const tool = turn.tool ?? {
      name: 'final_answer',
      args: { answer: turn.text ?? '' },
      result: turn.text ?? '',
    };
    const failed = tool.error !== undefined;
    const step: SpanSpec = {
      name: `Step ${k + 1}`,
      parent: root,
      startMs: t0,
      endMs: t0 + 950,
      attributes: {
        'openinference.span.kind': 'CHAIN',
        'input.value': pyJson({ memory_step: `ActionStep(step_number=${k + 1})` }),
        ...(failed ? {} : { 'output.value': `Observation: ${tool.result}` }),
      },
      events: failed
        ? [
            {
              name: 'agent.step_recovery',
              atMs: t0 + 949,
              attributes: {
                type: 'AgentToolExecutionError',
                message: `Error executing tool '${tool.name}' with arguments ${pyJson(tool.args)}: RuntimeError: ${tool.error}`,
                severity: 'expected',
              },
            },
          ]
        : [],
      status: { code: 'OK' },
    };
    spans.push(step, model(turn, step, t0));
    spans.push({
      name: tool.name === 'final_answer' ? 'FinalAnswerTool' : 'SimpleTool',
      parent: step,
      startMs: t0 + 650,
      endMs: t0 + 900,
      attributes: {
        'openinference.span.kind': 'TOOL',
        'input.value': pyJson({ args: [], sanitize_inputs_outputs: true, kwargs: tool.args }),
        'tool.name': tool.name,
        'tool.description': `${tool.name} tool`,
        'tool.parameters': pyJson(
          Object.fromEntries(Object.keys(tool.args).map((k) => [k, { type: 'string' }])),
        ),
        ...(failed ? {} : { 'output.value': tool.result, 'output.mime_type': 'text/plain' }),
      },
      events: failed
        ? [
            {
              name: 'exception',
              atMs: t0 + 899,
              attributes: {
                'exception.type': 'RuntimeError',
                'exception.message': tool.error!,
                'exception.stacktrace': `Traceback (most recent call last):\n  File "tools.py", line 20, in deploy\nRuntimeError: ${tool.error}`,
                'exception.escaped': 'False',
              },
            },
          ]
        : [],
      status: failed ? { code: 'ERROR', message: `RuntimeError: ${tool.error}` } : { code: 'OK' },
    });
  });
  if (run.forcedFinalAnswer) {
    spans.push(model(run.forcedFinalAnswer, root, run.turns.length * TURN_MS + 10));
  }
  return spans;
}

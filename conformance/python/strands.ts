// Strands Agents (Python), default GenAI conventions, as src/strands/telemetry/tracer.py emits:
// `invoke_agent {name}` > `execute_event_loop_cycle` (one per cycle, all children of the agent
// span) > `chat` and `execute_tool {tool}`. Messages, tool input and output ride on events.
import { pyJson, pythonResource } from './otlp-json';
import type { Attrs, SpanSpec } from './otlp-json';
import { TURN_MS, uuid } from './scenario';
import type { Turn } from './scenario';

export const STRANDS = {
  framework: 'python-strands',
  packages: { 'strands-agents': '1.40.0' },
  source: 'strands-agents/sdk-python@1232230daa4385fd6470be29013eb2375d7a307c',
  files: 'src/strands/telemetry/tracer.py, src/strands/event_loop/event_loop.py',
};

const SYSTEM = { 'gen_ai.system': 'strands-agents' };
const MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const iso = (ms: number) =>
  new Date(Date.UTC(2026, 0, 5, 9) + ms).toISOString().replace('Z', '+00:00');

export interface StrandsRun {
  agent: string;
  goal: string;
  turns: Turn[];
  /** The agent's stop reason (AgentResult.stop_reason). */
  stopReason: string;
  /** The last turn's tool raised an interrupt: its span ends without a result. */
  interruptLastTool?: boolean;
  /** The last model call's own stop reason, when it is not the agent's (guardrails). */
  lastModelStop?: string;
}

export function strandsSpans(run: StrandsRun, slot: number): SpanSpec[] {
  const spans: SpanSpec[] = [];
  const endMs = run.turns.length * TURN_MS + 50;
  const tools = [...new Set(run.turns.flatMap((t) => (t.tool ? [t.tool.name] : [])))];
  const totals = run.turns.reduce(
    (sum, t) => ({ i: sum.i + t.inputTokens, o: sum.o + t.outputTokens }),
    { i: 0, o: 0 },
  );
  const userEvent = (atMs: number) => ({
    name: 'gen_ai.user.message',
    atMs,
    attributes: { content: pyJson([{ text: run.goal }]) },
  });
  const agent: SpanSpec = {
    name: `invoke_agent ${run.agent}`,
    startMs: 0,
    endMs,
    attributes: {
      'gen_ai.event.start_time': iso(slot * 3_600_000),
      'gen_ai.operation.name': 'invoke_agent',
      ...SYSTEM,
      'gen_ai.agent.name': run.agent,
      'gen_ai.request.model': MODEL,
      'gen_ai.agent.tools': pyJson(tools),
      'gen_ai.event.end_time': iso(slot * 3_600_000 + endMs),
      'gen_ai.usage.prompt_tokens': totals.i,
      'gen_ai.usage.completion_tokens': totals.o,
      'gen_ai.usage.input_tokens': totals.i,
      'gen_ai.usage.output_tokens': totals.o,
      'gen_ai.usage.total_tokens': totals.i + totals.o,
      'gen_ai.usage.cache_read_input_tokens': 0,
      'gen_ai.usage.cache_write_input_tokens': 0,
    },
    events: [
      userEvent(1),
      {
        name: 'gen_ai.choice',
        atMs: endMs - 1,
        attributes: {
          message: run.turns.at(-1)?.text ?? '',
          finish_reason: run.stopReason,
        },
      },
    ],
    status: { code: 'OK' },
  };
  spans.push(agent);

  run.turns.forEach((turn, k) => {
    const t0 = k * TURN_MS + 10;
    const last = k === run.turns.length - 1;
    const toolId = `tooluse_${uuid(slot * 100 + k).slice(-12)}`;
    const modelStop = turn.tool
      ? 'tool_use'
      : last
        ? (run.lastModelStop ?? run.stopReason)
        : 'end_turn';
    const content = turn.tool
      ? [{ toolUse: { toolUseId: toolId, name: turn.tool.name, input: turn.tool.args } }]
      : [{ text: turn.text ?? '' }];
    const interrupted = last && run.interruptLastTool;
    const toolResult =
      turn.tool && !interrupted
        ? [
            {
              toolResult: {
                toolUseId: toolId,
                status: turn.tool.error ? 'error' : 'success',
                content: [
                  { text: turn.tool.error ? `Error: ${turn.tool.error}` : turn.tool.result },
                ],
              },
            },
          ]
        : null;
    const cycleAttrs: Attrs = {
      'gen_ai.event.start_time': iso(slot * 3_600_000 + t0),
      'gen_ai.operation.name': 'execute_event_loop_cycle',
      ...SYSTEM,
      'event_loop.cycle_id': uuid(slot * 100 + k),
      ...(k > 0 ? { 'event_loop.parent_cycle_id': uuid(slot * 100 + k - 1) } : {}),
      'gen_ai.event.end_time': iso(slot * 3_600_000 + t0 + 950),
    };
    const cycle: SpanSpec = {
      name: 'execute_event_loop_cycle',
      parent: agent,
      startMs: t0,
      endMs: t0 + 950,
      attributes: cycleAttrs,
      events: [
        userEvent(t0 + 1),
        ...(toolResult
          ? [
              {
                name: 'gen_ai.choice',
                atMs: t0 + 949,
                attributes: { message: pyJson(content), 'tool.result': pyJson(toolResult) },
              },
            ]
          : []),
      ],
      status: { code: 'OK' },
    };
    spans.push(cycle);
    spans.push({
      name: 'chat',
      parent: cycle,
      startMs: t0 + 20,
      endMs: t0 + 600,
      attributes: {
        'gen_ai.event.start_time': iso(slot * 3_600_000 + t0 + 20),
        'gen_ai.operation.name': 'chat',
        ...SYSTEM,
        'gen_ai.request.model': MODEL,
        'gen_ai.event.end_time': iso(slot * 3_600_000 + t0 + 600),
        'gen_ai.usage.prompt_tokens': turn.inputTokens,
        'gen_ai.usage.input_tokens': turn.inputTokens,
        'gen_ai.usage.completion_tokens': turn.outputTokens,
        'gen_ai.usage.output_tokens': turn.outputTokens,
        'gen_ai.usage.total_tokens': turn.inputTokens + turn.outputTokens,
        'gen_ai.server.time_to_first_token': 310,
        'gen_ai.server.request.duration': 560,
      },
      events: [
        userEvent(t0 + 21),
        {
          name: 'gen_ai.choice',
          atMs: t0 + 599,
          attributes: { finish_reason: modelStop, message: pyJson(content) },
        },
      ],
      status: { code: 'OK' },
    });
    if (!turn.tool) return;
    const failed = turn.tool.error !== undefined;
    spans.push({
      name: `execute_tool ${turn.tool.name}`,
      parent: cycle,
      startMs: t0 + 650,
      endMs: t0 + 900,
      attributes: {
        'gen_ai.event.start_time': iso(slot * 3_600_000 + t0 + 650),
        'gen_ai.operation.name': 'execute_tool',
        ...SYSTEM,
        'gen_ai.tool.name': turn.tool.name,
        'gen_ai.tool.call.id': toolId,
        'gen_ai.event.end_time': iso(slot * 3_600_000 + t0 + 900),
        ...(interrupted ? {} : { 'gen_ai.tool.status': failed ? 'error' : 'success' }),
      },
      events: [
        {
          name: 'gen_ai.tool.message',
          atMs: t0 + 651,
          attributes: { role: 'tool', content: pyJson(turn.tool.args), id: toolId },
        },
        ...(interrupted
          ? []
          : [
              {
                name: 'gen_ai.choice',
                atMs: t0 + 899,
                attributes: { message: pyJson(toolResult?.[0]?.toolResult.content), id: toolId },
              },
            ]),
        ...(failed
          ? [
              {
                name: 'exception',
                atMs: t0 + 899,
                attributes: {
                  'exception.type': 'RuntimeError',
                  'exception.message': turn.tool.error!,
                  'exception.stacktrace': `Traceback (most recent call last):\n  File "tools.py", line 12, in deploy\nRuntimeError: ${turn.tool.error}`,
                  'exception.escaped': 'False',
                },
              },
            ]
          : []),
      ],
      status: failed ? { code: 'ERROR', message: turn.tool.error } : { code: 'OK' },
    });
  });
  return spans;
}

export const strandsScope = { name: 'strands.telemetry.tracer' };
export const strandsResource = (service: string) => pythonResource(service);

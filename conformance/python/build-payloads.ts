// Writes conformance/captures/python-*/<scenario>/ from the span shapes read in each Python
// framework's own telemetry code (docs/frameworks/python.md): 001.json, the OTLP/JSON request the
// Python exporter would send, and capture.json, the versions read and what the run must come out
// as by docs/conventions.md. Built from source, not captured: no Python runs here. Deterministic.
//   node --import tsx conformance/python/build-payloads.ts
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportRequest } from './otlp-json';
import type { Batch, SpanSpec } from './otlp-json';
import { LANGGRAPH, langgraphResource, langgraphScope, langgraphSpans } from './langgraph';
import {
  OPENAI_AGENTS,
  openaiAgentsResource,
  openaiAgentsScope,
  openaiAgentsSpans,
} from './openai-agents';
import { PYDANTIC_AI, pydanticAiResource, pydanticAiScope, pydanticAiSpans } from './pydantic-ai';
import { failingDeployTurns, NO_SIGNALS, readTurns, tokens } from './scenario';
import type { Capture, ExpectedRun, Turn } from './scenario';
import { SMOLAGENTS, smolagentsResource, smolagentsScope, smolagentsSpans } from './smolagents';
import { STRANDS, strandsResource, strandsScope, strandsSpans } from './strands';

const CAPTURES = fileURLToPath(new URL('../captures/', import.meta.url));
const GOAL = 'Find why the orders service fails to start and fix it';

interface Source {
  framework: string;
  packages: Record<string, string>;
  source: string;
  files: string;
}

const captures: Capture[] = [];
function add(
  source: Source,
  scenario: string,
  build: {
    scope: Batch['scope'];
    resource: Batch['resource'];
    spans: (slot: number) => SpanSpec[];
  },
  expect: ExpectedRun,
  extra = '',
) {
  const slot = captures.length;
  captures.push({
    framework: source.framework,
    packages: source.packages,
    scenario,
    note: `built from ${source.source} (${source.files}); not captured${extra ? `. ${extra}` : ''}`,
    batch: {
      scenario: `${source.framework}/${scenario}`,
      slot,
      resource: build.resource,
      scope: build.scope,
      spans: build.spans(slot),
    },
    expect: { runs: [expect] },
  });
}

const run = (
  key: string,
  turns: readonly Turn[],
  exit: [string, string | null],
  steps: (string | null)[],
  signals: Partial<ExpectedRun['signals']> = {},
): ExpectedRun => ({
  key,
  exitCategory: exit[0],
  exitKind: exit[1],
  stepCount: steps.length,
  signals: { ...NO_SIGNALS, ...signals },
  ...tokens(turns),
  actions: steps.filter((a) => a !== null),
  fragment: false,
});

const toolActions = (turns: readonly Turn[]) => turns.flatMap((t) => (t.tool ? [t.tool.name] : []));
const MODEL_STOPPED: [string, null] = ['model_stopped', null];
const STEP_LIMIT: [string, string] = ['budget_exhausted', 'steps'];

// Strands: one step per event-loop cycle, the last one without a tool.
{
  const build = (turns: Turn[], stopReason: string, more: object = {}) => ({
    scope: strandsScope,
    resource: strandsResource('support-agent'),
    spans: (slot: number) =>
      strandsSpans({ agent: 'support-agent', goal: GOAL, turns, stopReason, ...more }, slot),
  });
  const cycles = (turns: Turn[]) => turns.map((t) => t.tool?.name ?? null);
  const key = 'only';
  const success = readTurns(['README.md']);
  add(
    STRANDS,
    'success',
    build(success, 'end_turn'),
    run(key, success, MODEL_STOPPED, cycles(success)),
  );
  const repeat = readTurns(['config.yaml', 'config.yaml', 'config.yaml']);
  add(
    STRANDS,
    'repeat',
    build(repeat, 'end_turn'),
    run(key, repeat, MODEL_STOPPED, cycles(repeat), { repeat: true }),
  );
  const oscillation = readTurns(['a.txt', 'b.txt', 'a.txt', 'b.txt']);
  add(
    STRANDS,
    'oscillation',
    build(oscillation, 'end_turn'),
    run(key, oscillation, MODEL_STOPPED, cycles(oscillation), { revisit: true }),
  );
  const failing = failingDeployTurns();
  add(
    STRANDS,
    'tool-failure',
    build(failing, 'end_turn'),
    run(key, failing, MODEL_STOPPED, cycles(failing), { toolCircuit: true }),
  );
  const interrupt: Turn[] = [
    {
      tool: { name: 'deploy', args: { service: 'orders', version: '1.4.2' }, result: '' },
      inputTokens: 1100,
      outputTokens: 30,
    },
  ];
  add(
    STRANDS,
    'interrupt',
    build(interrupt, 'interrupt', { interruptLastTool: true }),
    run(key, interrupt, ['escalated', null], ['deploy']),
    'A BeforeToolCallEvent hook raised an interrupt for approval: the tool span ends without a result and the agent stops with stop_reason "interrupt"',
  );
  const guardrail: Turn[] = [
    { text: 'Sorry, the model cannot answer that.', inputTokens: 900, outputTokens: 12 },
  ];
  add(
    STRANDS,
    'guardrail',
    build(guardrail, 'guardrail_intervened'),
    run(key, guardrail, ['cancelled', null], [null]),
    'A Bedrock guardrail intervened: the model call and the agent stop with "guardrail_intervened"',
  );
}

// OpenAI Agents: no turn span, so each function span is a step.
{
  const build = (turns: Turn[], more: object = {}) => ({
    scope: openaiAgentsScope,
    resource: openaiAgentsResource('support-agent'),
    spans: () => openaiAgentsSpans({ agent: 'Support agent', goal: GOAL, turns, ...more }),
  });
  const key = 'only';
  const success = readTurns(['README.md']);
  add(
    OPENAI_AGENTS,
    'success',
    build(success),
    run(key, success, MODEL_STOPPED, toolActions(success)),
  );
  const limited = readTurns(['a.txt', 'b.txt', 'c.txt']).slice(0, 3);
  add(
    OPENAI_AGENTS,
    'turn-limit',
    build(limited, { agentError: "Max turns exceeded: {'max_turns': 3}" }),
    run(key, limited, STEP_LIMIT, toolActions(limited)),
    'Runner.run(max_turns=3) raised MaxTurnsExceeded; the SDK trace still ends, so the root is OK',
  );
  const repeat = readTurns(['config.yaml', 'config.yaml', 'config.yaml']);
  add(
    OPENAI_AGENTS,
    'repeat',
    build(repeat),
    run(key, repeat, MODEL_STOPPED, toolActions(repeat), { repeat: true }),
  );
  const failing = failingDeployTurns();
  add(
    OPENAI_AGENTS,
    'tool-failure',
    build(failing),
    run(key, failing, MODEL_STOPPED, toolActions(failing), { toolCircuit: true }),
  );
  const approval: Turn[] = [
    {
      tool: { name: 'deploy', args: { service: 'orders', version: '1.4.2' }, result: '' },
      inputTokens: 1100,
      outputTokens: 30,
    },
  ];
  add(
    OPENAI_AGENTS,
    'approval',
    build(approval, { approvalPendingOnLastTool: true }),
    run(key, approval, ['unknown', null], []),
    'The deploy tool has needs_approval=True: the run returns with interruptions and no function span; nothing in the trace names the stop, so the run can only say it does not know',
  );
  const guardrail: Turn[] = [{ text: 'Here is the key...', inputTokens: 800, outputTokens: 20 }];
  add(
    OPENAI_AGENTS,
    'guardrail',
    build(guardrail, {
      guardrails: [{ name: 'no_secrets', triggered: true }],
      agentError: "Guardrail tripwire triggered: {'guardrail': 'no_secrets'}",
    }),
    run(key, guardrail, ['cancelled', null], []),
    'An input guardrail tripped while the first model call ran; Runner.run raised InputGuardrailTripwireTriggered',
  );
}

// LangGraph: one step per super-step (langgraph_step), agent and tools nodes alternating.
{
  const build = (turns: Turn[], more: object = {}) => ({
    scope: langgraphScope,
    resource: langgraphResource('support-agent'),
    spans: () => langgraphSpans({ goal: GOAL, turns, ...more }),
  });
  const superSteps = (turns: Turn[]) =>
    turns.flatMap((t) => (t.tool ? [null, t.tool.name] : [null]));
  const key = 'only';
  const success = readTurns(['README.md']);
  add(LANGGRAPH, 'success', build(success), run(key, success, MODEL_STOPPED, superSteps(success)));
  const tooMany = readTurns(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
  const ran = tooMany.slice(0, 3);
  add(
    LANGGRAPH,
    'recursion-limit',
    build(tooMany, { recursionLimit: 6 }),
    run(key, ran, STEP_LIMIT, superSteps(ran)),
    'create_react_agent invoked with recursion_limit=6: six super-steps ran, then GraphRecursionError',
  );
  const repeat = readTurns(['config.yaml', 'config.yaml', 'config.yaml']);
  add(
    LANGGRAPH,
    'repeat',
    build(repeat),
    run(key, repeat, MODEL_STOPPED, superSteps(repeat), { repeat: true }),
  );
  const oscillation = readTurns(['a.txt', 'b.txt', 'a.txt', 'b.txt']);
  add(
    LANGGRAPH,
    'oscillation',
    build(oscillation),
    run(key, oscillation, MODEL_STOPPED, superSteps(oscillation), { revisit: true }),
  );
  const failing = failingDeployTurns();
  add(
    LANGGRAPH,
    'tool-failure',
    build(failing),
    run(key, failing, MODEL_STOPPED, superSteps(failing), { toolCircuit: true }),
    'ToolNode(handle_tool_errors=True) turns each ToolException into an error ToolMessage',
  );
  const interrupt: Turn[] = [
    {
      tool: { name: 'deploy', args: { service: 'orders', version: '1.4.2' }, result: '' },
      inputTokens: 1100,
      outputTokens: 30,
    },
  ];
  add(
    LANGGRAPH,
    'interrupt',
    build(interrupt, { interruptLastTool: 'Approve deploy of orders 1.4.2?' }),
    run(key, interrupt, ['escalated', null], superSteps(interrupt)),
    'The deploy tool called interrupt() to ask a person; the graph returns with __interrupt__ and its root span ends OK',
  );
}

// PydanticAI: no step span, so each execute_tool span is a step.
{
  const build = (turns: Turn[], more: object = {}) => ({
    scope: pydanticAiScope,
    resource: pydanticAiResource('support-agent'),
    spans: () => pydanticAiSpans({ agent: 'support_agent', goal: GOAL, turns, ...more }),
  });
  const key = 'only';
  const success = readTurns(['README.md']);
  add(
    PYDANTIC_AI,
    'success',
    build(success),
    run(key, success, MODEL_STOPPED, toolActions(success)),
  );
  const limited = readTurns(['a.txt', 'b.txt', 'c.txt']).slice(0, 3);
  add(
    PYDANTIC_AI,
    'request-limit',
    build(limited, {
      raised: {
        type: 'UsageLimitExceeded',
        message: 'The next request would exceed the request_limit of 3',
      },
    }),
    run(key, limited, STEP_LIMIT, toolActions(limited)),
    'agent.run(usage_limits=UsageLimits(request_limit=3)) raised UsageLimitExceeded before the fourth request',
  );
  const repeat = readTurns(['config.yaml', 'config.yaml', 'config.yaml']);
  add(
    PYDANTIC_AI,
    'repeat',
    build(repeat),
    run(key, repeat, MODEL_STOPPED, toolActions(repeat), { repeat: true }),
  );
  const failing = failingDeployTurns();
  add(
    PYDANTIC_AI,
    'tool-failure',
    build(failing),
    run(key, failing, MODEL_STOPPED, toolActions(failing), { toolCircuit: true }),
    'The deploy tool (retries=3) raises ModelRetry each time; the model then gives up',
  );
  const approval: Turn[] = [
    {
      tool: { name: 'deploy', args: { service: 'orders', version: '1.4.2' }, result: '' },
      inputTokens: 1100,
      outputTokens: 30,
    },
  ];
  add(
    PYDANTIC_AI,
    'approval',
    build(approval, { approvalOnLastTool: true }),
    run(key, approval, ['escalated', null], ['deploy']),
    'The deploy tool raised ApprovalRequired (requires_approval=True): the run ends with DeferredToolRequests',
  );
}

// smolagents: one step per `Step N` span; the final answer is a tool call of its own.
{
  const build = (turns: Turn[], more: object = {}) => ({
    scope: smolagentsScope,
    resource: smolagentsResource('support-agent'),
    spans: () =>
      smolagentsSpans({ agent: 'support_agent', goal: GOAL, maxSteps: 3, turns, ...more }),
  });
  const stepActions = (turns: Turn[]) => turns.map((t) => t.tool?.name ?? 'final_answer');
  const key = 'only';
  const success = readTurns(['README.md']);
  add(
    SMOLAGENTS,
    'success',
    build(success),
    run(key, success, MODEL_STOPPED, stepActions(success)),
  );
  const limited = readTurns(['a.txt', 'b.txt', 'c.txt']);
  const ran = limited.slice(0, 3);
  const forced = limited[3]!;
  add(
    SMOLAGENTS,
    'max-steps',
    build(ran, { forcedFinalAnswer: forced }),
    run(key, limited, STEP_LIMIT, stepActions(ran)),
    'max_steps=3 reached: the agent asked the model for a final answer outside any step (AgentMaxStepsError is kept in memory only)',
  );
  const repeat = readTurns(['config.yaml', 'config.yaml', 'config.yaml']);
  add(
    SMOLAGENTS,
    'repeat',
    build(repeat, { maxSteps: 10 }),
    run(key, repeat, MODEL_STOPPED, stepActions(repeat), { repeat: true }),
  );
  const failing = failingDeployTurns();
  add(
    SMOLAGENTS,
    'tool-failure',
    build(failing, { maxSteps: 10 }),
    run(key, failing, MODEL_STOPPED, stepActions(failing), { toolCircuit: true }),
  );
}

const frameworks = new Set(captures.map((c) => c.framework));
for (const framework of frameworks)
  rmSync(path.join(CAPTURES, framework), { recursive: true, force: true });
for (const capture of captures) {
  const dir = path.join(CAPTURES, capture.framework, capture.scenario);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, '001.json'),
    `${JSON.stringify(exportRequest(capture.batch), null, 2)}\n`,
  );
  const manifest = {
    framework: capture.framework,
    packages: capture.packages,
    scenario: capture.scenario,
    source: 'built-from-source',
    note: capture.note,
    requests: [{ file: '001.json', contentType: 'application/json', contentEncoding: null }],
    expect: capture.expect,
  };
  writeFileSync(path.join(dir, 'capture.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}
console.log(`wrote ${captures.length} captures for ${[...frameworks].join(', ')}`);

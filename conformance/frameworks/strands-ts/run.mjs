// Strands Agents TS, unmodified, with its own telemetry set-up (telemetry.setupTracer with the
// OTLP exporter, configured by the standard OTEL_EXPORTER_OTLP_* variables) and its real OpenAI
// model class over a scripted fetch. `node run.mjs` captures every scenario twice: with the
// default GenAI conventions and with OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental.
import { captureOrRun } from '../../harness/main.mjs';
import { GOALS, TOOLS, letOneDeploySucceed, zodParams } from '../../harness/scenarios.mjs';
import { MODEL, scriptedOpenAIFetch } from '../../harness/scripted-openai.mjs';
import { run, expectGoal, expectLongInterleaved } from '../../harness/truth.mjs';

const SCENARIOS = [
  {
    name: 'success',
    note: 'Reads README.md, writes it, then answers: three cycles, the model ends with endTurn.',
    expect: expectGoal('success'),
  },
  {
    name: 'turn-limit',
    note: 'The model asks for the next page forever; limits.turns = 4 stops the loop (stopReason limitTurns).',
    expect: {
      runs: [
        run({
          key: 'agent:coder',
          exitCategory: 'budget_exhausted',
          exitKind: 'steps',
          stepCount: 4,
          modelCalls: 4,
          actions: ['list_files', 'list_files', 'list_files', 'list_files'],
        }),
      ],
    },
  },
  {
    name: 'repeat',
    note: 'search_docs with the same query four times, the same answer each time, then the model gives up.',
    expect: expectGoal('repeat'),
  },
  {
    name: 'oscillation',
    note: 'open_file alternates src/a.ts, src/b.ts, src/a.ts, src/b.ts (A/B/A/B), then the model answers.',
    expect: expectGoal('oscillation'),
  },
  {
    name: 'tool-failures',
    note: 'deploy throws four times in a row, each with another version (no two calls alike), then the model gives up.',
    expect: expectGoal('tool-failures'),
  },
  {
    name: 'tool-flaky',
    note: 'Control: deploy fails, succeeds, fails (never three failures in a row), then the model answers.',
    expect: expectGoal('tool-flaky'),
  },
  {
    name: 'approval',
    note: 'A BeforeToolCallEvent hook raises an interrupt before delete_branch (human approval); the agent stops with stopReason interrupt, the tool never runs.',
    expect: {
      runs: [
        run({
          key: 'agent:coder',
          exitCategory: 'escalated',
          stepCount: 1,
          modelCalls: 1,
          actions: ['delete_branch'],
        }),
      ],
    },
  },
  {
    name: 'long-interleaved',
    note: 'A 33-cycle audit (32 distinct read_file calls) runs beside two short agents; BatchSpanProcessor exports batches of at most 5 spans (OTEL_BSP_MAX_EXPORT_BATCH_SIZE=5), so the runs arrive interleaved across many requests.',
    env: { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '5', OTEL_BSP_SCHEDULE_DELAY: '20' },
    expect: expectLongInterleaved(),
  },
];

async function runScenario(name) {
  // The set-up a Strands user writes (the guide quotes these lines).
  const { Agent, BeforeToolCallEvent, tool } = await import('@strands-agents/sdk');
  const { setupTracer } = await import('@strands-agents/sdk/telemetry');
  const { OpenAIModel } = await import('@strands-agents/sdk/models/openai');
  const { z } = await import('zod');
  const provider = setupTracer({ exporters: { otlp: true } });

  if (name === 'tool-flaky') letOneDeploySucceed();
  const schema = (params) => zodParams(z, params);
  const tools = Object.entries(TOOLS).map(([toolName, t]) =>
    tool({
      name: toolName,
      description: t.description,
      inputSchema: schema(t.params),
      callback: (input) => t.run(input),
    }),
  );
  const model = () =>
    new OpenAIModel({
      api: 'chat',
      modelId: MODEL,
      apiKey: 'sk-scripted',
      clientConfig: { fetch: scriptedOpenAIFetch() },
    });
  const agent = (agentName) =>
    new Agent({ name: agentName, model: model(), tools, printer: false });

  if (name === 'long-interleaved') {
    await Promise.all([
      agent('auditor').invoke(GOALS.long),
      agent('helper-a').invoke(GOALS['short-a']),
      agent('helper-b').invoke(GOALS['short-b']),
    ]);
  } else if (name === 'turn-limit') {
    const result = await agent('coder').invoke(GOALS['step-limit'], { limits: { turns: 4 } });
    console.log('stopReason', result.stopReason);
  } else if (name === 'approval') {
    const coder = agent('coder');
    coder.addHook(BeforeToolCallEvent, (event) => {
      if (event.toolUse.name === 'delete_branch') {
        event.interrupt({
          name: 'approve_delete_branch',
          reason: 'Deleting a branch needs a person',
        });
      }
    });
    const result = await coder.invoke(GOALS.approval);
    console.log('stopReason', result.stopReason);
  } else {
    const result = await agent('coder').invoke(GOALS[name]);
    console.log('stopReason', result.stopReason);
  }
  await provider.shutdown();
}

const PACKAGES = [
  '@strands-agents/sdk',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/sdk-trace-base',
];
export const CAPTURES = [
  {
    framework: 'strands-ts',
    packages: PACKAGES,
    scenarios: SCENARIOS,
  },
  {
    framework: 'strands-ts-latest',
    packages: PACKAGES,
    env: { OTEL_SEMCONV_STABILITY_OPT_IN: 'gen_ai_latest_experimental' },
    scenarios: SCENARIOS.map((s) => ({
      ...s,
      note: `${s.note} With OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental.`,
    })),
  },
];

await captureOrRun(import.meta, { runScenario, captures: CAPTURES });

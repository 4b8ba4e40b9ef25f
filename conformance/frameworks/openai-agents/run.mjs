// OpenAI Agents JS, unmodified, traced through OpenInference's processor for the SDK (the set-up
// of that package's README: NodeTracerProvider, BatchSpanProcessor, the OTLP proto exporter),
// with the real OpenAI client over a scripted fetch (Chat Completions API).
import { captureOrRun } from '../../harness/main.mjs';
import { GOALS, TOOLS, letOneDeploySucceed, zodParams } from '../../harness/scenarios.mjs';
import { MODEL, scriptedOpenAIFetch } from '../../harness/scripted-openai.mjs';
import { run, times, expectGoal, expectLongInterleaved } from '../../harness/truth.mjs';

const coder = (fields) => ({ runs: [run({ key: 'agent:coder', ...fields })] });

const SCENARIOS = [
  {
    name: 'success',
    note: 'Reads README.md, writes it, then answers with its final output: three turns.',
    expect: expectGoal('success'),
  },
  {
    name: 'turn-limit',
    note: 'The model asks for the next page forever; maxTurns = 4 stops the run with MaxTurnsExceededError.',
    expect: coder({
      exitCategory: 'budget_exhausted',
      exitKind: 'steps',
      stepCount: 4,
      modelCalls: 4,
      actions: times(4, 'list_files'),
    }),
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
    note: 'deploy throws four times in a row, each with another version; the SDK hands each error to the model, which then gives up.',
    expect: expectGoal('tool-failures'),
  },
  {
    name: 'tool-flaky',
    note: 'Control: deploy fails, succeeds, fails (never three failures in a row), then the model answers.',
    expect: expectGoal('tool-flaky'),
  },
  {
    name: 'approval',
    note: 'delete_branch has needsApproval: true; the run stops with one pending interruption and the tool never runs. The spans name nothing of the interruption (every span OK, no event, the last generation asked for delete_branch), so the honest reading is unknown: the run ended and named no reason.',
    expect: coder({
      exitCategory: 'unknown',
      stepCount: 1,
      modelCalls: 1,
      actions: ['delete_branch'],
    }),
  },
  {
    name: 'input-guardrail',
    note: 'An input guardrail (runInParallel: false) trips in the first turn, before any model call: InputGuardrailTripwireTriggered.',
    expect: coder({ exitCategory: 'cancelled', stepCount: 1, modelCalls: 0, actions: [] }),
  },
  {
    name: 'output-guardrail',
    note: 'The model reads secrets.env and answers with the secret; the output guardrail trips: OutputGuardrailTripwireTriggered.',
    expect: coder({
      exitCategory: 'cancelled',
      stepCount: 2,
      modelCalls: 2,
      actions: ['read_file'],
    }),
  },
  {
    name: 'long-interleaved',
    note: 'A 33-turn audit (32 distinct read_file calls) runs beside two short agents; BatchSpanProcessor exports batches of at most 5 spans, so the runs arrive interleaved across many requests. OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT=1000 as the guide says: with the SDK default of 128, OpenInference spends the attributes of each generation past turn 16 on llm.input_messages.* and its token counts, output and finish reason are dropped before export.',
    env: {
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '5',
      OTEL_BSP_SCHEDULE_DELAY: '20',
      OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '1000',
    },
    expect: expectLongInterleaved(),
  },
];

async function runScenario(name) {
  // The set-up an OpenAI Agents user writes (the guide quotes these lines).
  const agents = await import('@openai/agents');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const { BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
  const { OpenAIAgentsInstrumentation } =
    await import('@arizeai/openinference-instrumentation-openai-agents');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'conformance-openai-agents' }),
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({
          url: `http://127.0.0.1:${process.env.PORT ?? 3000}/v1/traces`,
          headers: { Authorization: `Bearer ${process.env.LOOPSCOPE_API_KEY}` },
        }),
      ),
    ],
  });
  provider.register();
  new OpenAIAgentsInstrumentation({ tracerProvider: provider }).manuallyInstrument(agents);

  const { default: OpenAI } = await import('openai');
  const { z } = await import('zod');
  agents.setDefaultOpenAIClient(
    new OpenAI({ apiKey: 'sk-scripted', fetch: scriptedOpenAIFetch() }),
  );
  agents.setOpenAIAPI('chat_completions');

  if (name === 'tool-flaky') letOneDeploySucceed();
  const schema = (params) => zodParams(z, params);
  const tools = Object.entries(TOOLS).map(([toolName, t]) =>
    agents.tool({
      name: toolName,
      description: t.description,
      parameters: schema(t.params),
      needsApproval: toolName === 'delete_branch',
      execute: async (input) => t.run(input),
    }),
  );
  const agent = (agentName, extra = {}) =>
    new agents.Agent({
      name: agentName,
      model: MODEL,
      instructions: 'You are a careful engineer.',
      tools,
      ...extra,
    });
  const attempt = async (promise) => {
    try {
      const result = await promise;
      console.log(
        'final',
        result.finalOutput ?? '',
        'interruptions',
        result.interruptions?.length ?? 0,
      );
    } catch (error) {
      console.log('threw', error.constructor.name, error.message);
    }
  };

  if (name === 'long-interleaved') {
    await Promise.all([
      attempt(agents.run(agent('auditor'), GOALS.long, { maxTurns: 50 })),
      attempt(agents.run(agent('helper-a'), GOALS['short-a'])),
      attempt(agents.run(agent('helper-b'), GOALS['short-b'])),
    ]);
  } else if (name === 'turn-limit') {
    await attempt(agents.run(agent('coder'), GOALS['step-limit'], { maxTurns: 4 }));
  } else if (name === 'input-guardrail') {
    const guarded = agent('coder', {
      inputGuardrails: [
        {
          name: 'no_secrets',
          runInParallel: false,
          execute: async () => ({
            tripwireTriggered: true,
            outputInfo: { reason: 'asks for secrets' },
          }),
        },
      ],
    });
    await attempt(agents.run(guarded, GOALS.guardrail));
  } else if (name === 'output-guardrail') {
    const guarded = agent('coder', {
      outputGuardrails: [
        {
          name: 'no_secret_output',
          execute: async ({ agentOutput }) => ({
            tripwireTriggered: String(agentOutput).includes('hunter2'),
            outputInfo: {},
          }),
        },
      ],
    });
    await attempt(agents.run(guarded, GOALS.guardrail));
  } else {
    await attempt(agents.run(agent('coder'), GOALS[name === 'approval' ? 'approval' : name]));
  }
  await provider.shutdown();
}

export const CAPTURES = [
  {
    framework: 'openai-agents',
    packages: [
      '@openai/agents',
      '@arizeai/openinference-instrumentation-openai-agents',
      'openai',
      '@opentelemetry/exporter-trace-otlp-proto',
      '@opentelemetry/sdk-trace-node',
    ],
    scenarios: SCENARIOS,
  },
];

await captureOrRun(import.meta, { runScenario, captures: CAPTURES });

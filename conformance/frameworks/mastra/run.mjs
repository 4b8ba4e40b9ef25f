// Mastra, unmodified, with its own AI tracing and the OpenTelemetry exporter Mastra ships for it
// (@mastra/otel-exporter with the "custom" provider over http/protobuf, which uses the stock
// @opentelemetry/exporter-trace-otlp-proto), over the real AI SDK OpenAI provider (Chat
// Completions) with a scripted fetch. Mastra 0.24.9: every 1.x release needs Node >= 22.13.
import { captureOrRun } from '../../harness/main.mjs';
import { GOALS, TOOLS, letOneDeploySucceed, zodParams } from '../../harness/scenarios.mjs';
import { MODEL, scriptedOpenAIFetch } from '../../harness/scripted-openai.mjs';
import { run, times, expectGoal, expectLongInterleaved } from '../../harness/truth.mjs';

const coder = (fields) => ({ runs: [run({ key: 'agent:coder', ...fields })] });

const SCENARIOS = [
  {
    name: 'success',
    note: 'Reads README.md, writes it, then answers: three steps, the last with finish reason stop.',
    expect: expectGoal('success'),
  },
  {
    name: 'step-limit',
    note: 'The model asks for the next page forever; maxSteps = 4 ends the generate call after four steps, the last with finish reason tool-calls.',
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
    note: 'deploy throws four times in a row, each with another version; each error goes back to the model, which then gives up.',
    expect: expectGoal('tool-failures'),
  },
  {
    name: 'tool-flaky',
    note: 'Control: deploy fails, succeeds, fails (never three failures in a row), then the model answers.',
    expect: expectGoal('tool-flaky'),
  },
  {
    name: 'output-tripwire',
    note: "The model reads secrets.env and answers with the secret; an output processor (Mastra's guardrail hook) calls abort(\"leaks a secret\"): the result carries tripwire = true. Mastra 0.24.9 records nothing of it: no processor span, no attribute, every span OK and the agent span's output holds the leaked text, so the spans say the model stopped on its own, and that is all Loopscope can honestly read. (An input processor's abort is worse: the agent span is never ended and nothing is exported at all; `node run.mjs input-tripwire` shows it.)",
    expect: coder({
      exitCategory: 'model_stopped',
      stepCount: 2,
      modelCalls: 2,
      actions: ['read_file'],
    }),
  },
  {
    name: 'long-interleaved',
    note: "A 33-step audit (32 distinct read_file calls) runs beside two short agents; the OtelExporter's BatchSpanProcessor exports batches of at most 5 spans (its batchSize option), so the runs arrive interleaved across many requests.",
    env: { MASTRA_OTEL_BATCH_SIZE: '5' },
    expect: expectLongInterleaved(),
  },
];

async function runScenario(name) {
  const { Mastra } = await import('@mastra/core');
  const { Agent } = await import('@mastra/core/agent');
  const { createTool } = await import('@mastra/core/tools');
  const { OtelExporter } = await import('@mastra/otel-exporter');
  const { createOpenAI } = await import('@ai-sdk/openai');
  const { z } = await import('zod');

  if (name === 'tool-flaky') letOneDeploySucceed();
  const schema = (params) => zodParams(z, params);
  const tools = Object.fromEntries(
    Object.entries(TOOLS).map(([toolName, t]) => [
      toolName,
      createTool({
        id: toolName,
        description: t.description,
        inputSchema: schema(t.params),
        execute: async ({ context }) => t.run(context),
      }),
    ]),
  );
  const model = createOpenAI({ apiKey: 'sk-scripted', fetch: scriptedOpenAIFetch() }).chat(MODEL);
  const secretsGuard = {
    name: 'no-secrets',
    processInput: ({ messages, abort }) => {
      if (JSON.stringify(messages).includes('secrets')) abort('asks for secrets');
      return messages;
    },
  };
  const leakGuard = {
    name: 'no-leaks',
    processOutputResult: ({ messages, abort }) => {
      if (JSON.stringify(messages).includes('hunter2')) abort('leaks a secret');
      return messages;
    },
  };
  const agent = (agentName, extra = {}) =>
    new Agent({
      name: agentName,
      instructions: 'You are a careful engineer.',
      model,
      tools,
      ...extra,
    });
  const agents = {
    coder: agent(
      'coder',
      name === 'input-tripwire'
        ? { inputProcessors: [secretsGuard] }
        : name === 'output-tripwire'
          ? { outputProcessors: [leakGuard] }
          : {},
    ),
    auditor: agent('auditor'),
    helperA: agent('helper-a'),
    helperB: agent('helper-b'),
  };

  // The set-up a Mastra user writes (the guide quotes these lines).
  const mastra = new Mastra({
    agents,
    observability: {
      configs: {
        otel: {
          serviceName: 'conformance-mastra',
          exporters: [
            new OtelExporter({
              provider: {
                custom: {
                  endpoint: `http://127.0.0.1:${process.env.PORT ?? 3000}/v1/traces`,
                  protocol: 'http/protobuf',
                  headers: { Authorization: `Bearer ${process.env.LOOPSCOPE_API_KEY}` },
                },
              },
              ...(process.env.MASTRA_OTEL_BATCH_SIZE
                ? { batchSize: Number(process.env.MASTRA_OTEL_BATCH_SIZE) }
                : {}),
            }),
          ],
        },
      },
    },
  });

  const call = async (key, goal, maxSteps = 20) => {
    const result = await mastra.getAgent(key).generate(goal, { maxSteps });
    console.log(
      key,
      'steps',
      result.steps?.length,
      'finish',
      result.finishReason,
      'tripwire',
      result.tripwire ?? false,
    );
  };
  if (name === 'long-interleaved') {
    await Promise.all([
      call('auditor', GOALS.long, 40),
      call('helperA', GOALS['short-a']),
      call('helperB', GOALS['short-b']),
    ]);
  } else if (name === 'step-limit') {
    await call('coder', GOALS['step-limit'], 4);
  } else if (name === 'input-tripwire' || name === 'output-tripwire') {
    await call('coder', GOALS.guardrail);
  } else {
    await call('coder', GOALS[name]);
  }
  // The OtelExporter loads its OTLP exporter lazily, when the first span ends; a script that shuts
  // down at once loses every span (0 requests arrive). Give that import a moment first.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await mastra.shutdown();
}

export const CAPTURES = [
  {
    framework: 'mastra',
    packages: [
      '@mastra/core',
      '@mastra/otel-exporter',
      '@ai-sdk/openai',
      '@opentelemetry/exporter-trace-otlp-proto',
    ],
    scenarios: SCENARIOS,
  },
];

await captureOrRun(import.meta, { runScenario, captures: CAPTURES });

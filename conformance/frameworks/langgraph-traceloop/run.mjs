// LangGraph JS, unmodified, traced through Traceloop's LangChain instrumentation (manuallyInstrument
// on the callbacks manager, as ESM needs), with the OTLP proto exporter and the real ChatOpenAI
// client over a scripted fetch. Each scenario runs inside an app span (the user's own
// `invoke_agent <name>` span, with the GenAI attributes OTel names for an agent span); the
// `no-app-span-*` scenarios run bare, and Traceloop then starts a new trace for every span.
import { captureOrRun } from '../../harness/main.mjs';
import { LANGGRAPH_SCENARIOS, runLangGraphScenario } from '../../harness/langgraph-scenarios.mjs';

async function runScenario(name) {
  // The set-up a LangGraph user writes (the guide quotes these lines).
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const { BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
  const { LangChainInstrumentation } = await import('@traceloop/instrumentation-langchain');
  const CallbackManagerModule = await import('@langchain/core/callbacks/manager');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'conformance-langgraph-traceloop' }),
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
  new LangChainInstrumentation().manuallyInstrument({
    callbackManagerModule: CallbackManagerModule,
  });

  const { createReactAgent } = await import('@langchain/langgraph/prebuilt');
  const { MemorySaver, interrupt } = await import('@langchain/langgraph');
  const { ChatOpenAI } = await import('@langchain/openai');
  const { tool } = await import('@langchain/core/tools');
  const { z } = await import('zod');
  const { trace } = await import('@opentelemetry/api');
  const tracer = trace.getTracer('my-app');
  const inAppSpan = (agentName, invoke) =>
    tracer.startActiveSpan(
      `invoke_agent ${agentName}`,
      { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': agentName } },
      async (span) => {
        try {
          return await invoke();
        } finally {
          span.end();
        }
      },
    );
  const bare = name.startsWith('no-app-span-');
  await runLangGraphScenario(
    bare ? name.slice('no-app-span-'.length) : name,
    { createReactAgent, ChatOpenAI, tool, z, MemorySaver, interrupt },
    bare ? undefined : inAppSpan,
  );
  await provider.shutdown();
}

// Traceloop's spans carry no super-step (no langgraph_step, no node names), so by the conventions
// each tool call is a step: the truth counts tool calls.
const perToolCall = (scenario) => ({
  ...scenario,
  note: `${scenario.note} Inside the app span; Traceloop's spans name no super-step, so each tool call is a step.`,
  expect: { runs: scenario.expect.runs.map((r) => ({ ...r, stepCount: r.actions.length })) },
});

const NO_APP_SPAN = [
  {
    name: 'no-app-span-success',
    note: 'The success scenario without an enclosing app span: Traceloop starts a new trace for every span, so no run can be assembled; every trace must be shown as a fragment.',
    expect: { runs: [], fragments: 'all' },
  },
  {
    name: 'no-app-span-long-interleaved',
    note: 'The long-interleaved scenario without an enclosing app span: every span is its own trace; every trace must be shown as a fragment.',
    env: { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '10', OTEL_BSP_SCHEDULE_DELAY: '20' },
    expect: { runs: [], fragments: 'all' },
  },
];

export const CAPTURES = [
  {
    framework: 'langgraph-traceloop',
    packages: [
      '@langchain/langgraph',
      '@langchain/core',
      '@langchain/openai',
      '@traceloop/instrumentation-langchain',
      '@opentelemetry/exporter-trace-otlp-proto',
    ],
    scenarios: [...LANGGRAPH_SCENARIOS.map(perToolCall), ...NO_APP_SPAN],
  },
];

await captureOrRun(import.meta, { runScenario, captures: CAPTURES });

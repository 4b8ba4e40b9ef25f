// LangGraph JS, unmodified, traced through OpenInference's LangChain instrumentation (the set-up of
// that package's README: a NodeTracerProvider, manuallyInstrument on the callbacks manager), with
// the OTLP proto exporter and the real ChatOpenAI client over a scripted fetch.
import { captureOrRun } from '../../harness/main.mjs';
import { LANGGRAPH_SCENARIOS, runLangGraphScenario } from '../../harness/langgraph-scenarios.mjs';

async function runScenario(name) {
  // The set-up a LangGraph user writes (the guide quotes these lines).
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const { BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { NodeTracerProvider } = await import('@opentelemetry/sdk-trace-node');
  const { LangChainInstrumentation } =
    await import('@arizeai/openinference-instrumentation-langchain');
  const CallbackManagerModule = await import('@langchain/core/callbacks/manager');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'conformance-langgraph-openinference' }),
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
  new LangChainInstrumentation().manuallyInstrument(CallbackManagerModule);

  const { createReactAgent } = await import('@langchain/langgraph/prebuilt');
  const { MemorySaver, interrupt } = await import('@langchain/langgraph');
  const { ChatOpenAI } = await import('@langchain/openai');
  const { tool } = await import('@langchain/core/tools');
  const { z } = await import('zod');
  await runLangGraphScenario(name, {
    createReactAgent,
    ChatOpenAI,
    tool,
    z,
    MemorySaver,
    interrupt,
  });
  await provider.shutdown();
}

export const CAPTURES = [
  {
    framework: 'langgraph-openinference',
    packages: [
      '@langchain/langgraph',
      '@langchain/core',
      '@langchain/openai',
      '@arizeai/openinference-instrumentation-langchain',
      '@opentelemetry/exporter-trace-otlp-proto',
    ],
    scenarios: LANGGRAPH_SCENARIOS,
  },
];

await captureOrRun(import.meta, { runScenario, captures: CAPTURES });

// Vercel AI SDK 7, unmodified: generateText with experimental_telemetry and the @ai-sdk/otel integration (registerTelemetry, which v7 needs before it emits spans), traced by the
// OpenTelemetry Node SDK (NodeSDK with the OTLP proto exporter, as the AI SDK's telemetry docs
// set it up outside Next.js), over the real OpenAI provider with a scripted fetch.
import { captureOrRun } from '../../harness/main.mjs';
import { AI_SDK_SCENARIOS, runAiSdkScenario } from '../../harness/ai-sdk-scenarios.mjs';

async function runScenario(name) {
  // The set-up an AI SDK user writes (the guide quotes these lines).
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  const sdk = new NodeSDK({
    serviceName: 'conformance-ai-sdk-7',
    traceExporter: new OTLPTraceExporter({
      url: `http://127.0.0.1:${process.env.PORT ?? 3000}/v1/traces`,
      headers: { Authorization: `Bearer ${process.env.LOOPSCOPE_API_KEY}` },
    }),
  });
  sdk.start();
  const { registerTelemetry } = await import('ai');
  const { OpenTelemetry } = await import('@ai-sdk/otel');
  registerTelemetry(new OpenTelemetry());

  const { generateText, tool, stepCountIs } = await import('ai');
  const { createOpenAI } = await import('@ai-sdk/openai');
  const { z } = await import('zod');
  await runAiSdkScenario(name, { generateText, tool, stepCountIs, z, createOpenAI });
  await sdk.shutdown();
}

export const CAPTURES = [
  {
    framework: 'ai-sdk-7',
    packages: [
      'ai',
      '@ai-sdk/openai',
      '@ai-sdk/otel',
      '@opentelemetry/sdk-node',
      '@opentelemetry/exporter-trace-otlp-proto',
    ],
    scenarios: AI_SDK_SCENARIOS,
  },
];

await captureOrRun(import.meta, { runScenario, captures: CAPTURES });

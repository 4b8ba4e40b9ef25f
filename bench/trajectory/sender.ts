// The real exporter pipeline (OTLP protobuf, gzip, batches of 512) as e2e/support/otel.ts sets it
// up, with a longer retry deadline (the server may answer 503 with Retry-After while the machine
// is busy) and a count of spans an export gave up on, so a lost span is an error, not a hang.
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SpanExporter } from '@opentelemetry/sdk-trace';

export interface BenchSender {
  tracer: Tracer;
  /** Flushes and stops the pipeline; returns how many spans were not accepted. */
  shutdown(): Promise<number>;
}

export function createBenchSender(url: string, key: string): BenchSender {
  const inner = new OTLPTraceExporter({
    url: `${url}/v1/traces`,
    headers: { Authorization: `Bearer ${key}` },
    compression: 'gzip' as never,
    timeoutMillis: 120_000,
  }) as unknown as SpanExporter;
  let lost = 0;
  const exporter: SpanExporter = {
    export: (spans, done) =>
      inner.export(spans, (result) => {
        if (result.code !== 0) lost += spans.length;
        done(result);
      }),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'loopscope-bench' }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        maxExportBatchSize: 512,
        scheduledDelayMillis: 50,
        maxQueueSize: 200_000,
      }),
    ],
  });
  return {
    tracer: provider.getTracer('loopscope-bench'),
    shutdown: async () => {
      await provider.shutdown();
      return lost;
    },
  };
}

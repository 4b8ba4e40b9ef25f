// A real OpenTelemetry SDK pipeline pointed at a Loopscope URL: the TracerProvider with a batch
// processor and the OTLP exporter of the chosen protocol, exactly as a harness would set it up.
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { Metadata } from '@grpc/grpc-js';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import type { Tracer } from '@opentelemetry/api';

export interface Sender {
  tracer: Tracer;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export function createSender(options: {
  /** The server's base URL; for `grpc`, its OTLP/gRPC address (`http://host:port`). */
  url: string;
  key: string;
  protocol?: 'proto' | 'json' | 'grpc';
  gzip?: boolean;
  serviceName?: string;
  /** Every span the SDK ends is recorded here as `traceId:spanId` before it is exported. */
  emitted?: Set<string>;
  /** Every span the server acknowledged (its export succeeded), with the time it was. */
  acknowledged?: Map<string, number>;
}): Sender {
  const exporterOptions = {
    url: `${options.url}/v1/traces`,
    headers: { Authorization: `Bearer ${options.key}` },
    compression: (options.gzip ? 'gzip' : 'none') as never,
    // Retries (on 429/503 and network errors) stop at this deadline; 10 s is the default.
    timeoutMillis: 30_000,
  };
  const chosen: SpanExporter =
    options.protocol === 'grpc'
      ? grpcExporter(options.url, options.key, options.gzip ?? false)
      : options.protocol === 'json'
        ? (new JsonExporter(exporterOptions) as unknown as SpanExporter)
        : (new ProtoExporter(exporterOptions) as unknown as SpanExporter);
  const exporter = options.acknowledged ? recordingExporter(chosen, options.acknowledged) : chosen;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName ?? 'loopscope-test' }),
    spanProcessors: [
      ...(options.emitted ? [recordingProcessor(options.emitted)] : []),
      new BatchSpanProcessor({
        exporter,
        maxExportBatchSize: 512,
        scheduledDelayMillis: 50,
        maxQueueSize: 200_000,
      }),
    ],
  });
  return {
    tracer: provider.getTracer('loopscope-test'),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** The OTLP/gRPC exporter as a harness sets it up: the key in the `authorization` metadata. */
export function grpcExporter(url: string, key: string, gzip: boolean): SpanExporter {
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${key}`);
  return new GrpcExporter({
    url,
    metadata,
    compression: (gzip ? 'gzip' : 'none') as never,
    timeoutMillis: 30_000,
  }) as unknown as SpanExporter;
}

function recordingProcessor(emitted: Set<string>): SpanProcessor {
  return {
    onStart: () => {},
    onEnd: (span) => {
      const { traceId, spanId } = span.spanContext();
      emitted.add(`${traceId}:${spanId}`);
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

/** The exporter as it was, recording the spans of each export the server acknowledged. */
function recordingExporter(inner: SpanExporter, acknowledged: Map<string, number>): SpanExporter {
  return {
    export: (spans, done) =>
      inner.export(spans, (result) => {
        if (result.code === 0) {
          const now = Date.now();
          for (const span of spans) {
            const { traceId, spanId } = span.spanContext();
            acknowledged.set(`${traceId}:${spanId}`, now);
          }
        }
        done(result);
      }),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

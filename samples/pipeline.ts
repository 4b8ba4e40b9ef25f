// The samples' OpenTelemetry pipeline: the SDK's TracerProvider, a batch processor and the OTLP
// protobuf exporter, as any harness would have, plus two things a demo needs: trace and span ids
// that are the same on every replay, and a count of what the server accepted.
import { createHash } from 'node:crypto';
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { IdGenerator, ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { Tracer } from '@opentelemetry/api';

/** Ids from a seed and a counter: replaying a run re-sends the very same spans. */
export class SeededIdGenerator implements IdGenerator {
  private seed = 'loopscope';
  private counter = 0;

  reseed(seed: string): void {
    this.seed = seed;
    this.counter = 0;
  }

  generateTraceId(): string {
    return this.next(32);
  }

  generateSpanId(): string {
    return this.next(16);
  }

  private next(length: number): string {
    return createHash('sha256')
      .update(`${this.seed}\n${this.counter++}`)
      .digest('hex')
      .slice(0, length);
  }
}

export interface Delivery {
  exported: number;
  failed: number;
  lastError: string | null;
}

class CountingExporter implements SpanExporter {
  readonly delivery: Delivery = { exported: 0, failed: 0, lastError: null };

  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code === ExportResultCode.SUCCESS) this.delivery.exported += spans.length;
      else {
        this.delivery.failed += spans.length;
        this.delivery.lastError = result.error?.message ?? 'export failed';
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

export interface Pipeline {
  tracer: Tracer;
  ids: SeededIdGenerator;
  flush(): Promise<void>;
  /** Exports what is left and answers how many spans the server took. */
  shutdown(): Promise<Delivery>;
}

export function createPipeline(options: {
  tracesUrl: string;
  headers: Record<string, string>;
  serviceName?: string;
}): Pipeline {
  const exporter = new CountingExporter(
    new OTLPTraceExporter({
      url: options.tracesUrl,
      headers: options.headers,
      // Retries on 429/503 stop at this deadline (the exporter's default is 10 s).
      timeoutMillis: 30_000,
    }) as unknown as SpanExporter,
  );
  const ids = new SeededIdGenerator();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName ?? 'loopscope-samples',
    }),
    idGenerator: ids,
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        maxExportBatchSize: 512,
        maxQueueSize: 100_000,
        scheduledDelayMillis: 100,
      }),
    ],
  });
  return {
    tracer: provider.getTracer('loopscope-samples'),
    ids,
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      await provider.shutdown();
      return exporter.delivery;
    },
  };
}

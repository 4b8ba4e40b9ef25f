import { sql } from 'drizzle-orm';
import { Client, credentials, Metadata, status } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import type { Tracer } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows, TEST_DATABASE_KINDS } from '../db/test-database';
import { createSender, grpcExporter } from '../e2e/support/otel';
import { emitRun, restartLoop } from '../e2e/support/scenarios';
import { startTestServer } from '../e2e/support/test-server';
import type { TestServer } from '../e2e/support/test-server';
import { createThrowawayPostgres } from '../e2e/support/throwaway-postgres';
import { freePort } from '../e2e/support/spawn-server';
import { listenGrpc } from '../server/grpc-server';
import type { GrpcListener } from '../server/grpc-server';
import { connectDatabase, createRuntime } from '../server/boot';
import { readServerConfig } from '../server/config';
import { otlpEndpointDeps } from '../server/runtime';
import type { Runtime } from '../server/runtime';
import { createApiKey, ensureProject } from '../db/projects';
import { RETRY_INFO_TYPE } from './otlp/encode-response';
import { loadOtlpTypes } from './otlp/fixtures/otlp-trace-proto';
import { TRACE_EXPORT_PATH } from './otlp-grpc';

const MAX_BODY = 64 * 1024;

/** Spans the SDK ended, kept to hand to the gRPC exporter one export at a time. */
function recordSpans(emit: (tracer: Tracer) => void): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
  });
  emit(provider.getTracer('grpc-test'));
  return memory.getFinishedSpans();
}

function exportOnce(
  url: string,
  key: string,
  spans: ReadableSpan[],
  gzip = false,
): Promise<ExportResult> {
  const exporter = grpcExporter(url, key, gzip);
  return new Promise<ExportResult>((resolve) => exporter.export(spans, resolve)).finally(() =>
    exporter.shutdown(),
  );
}

/** One Export call with a hand-made request, through a plain grpc-js client. */
function rawExport(url: string, key: string, request: Uint8Array): Promise<Buffer> {
  const client = new Client(url.replace('http://', ''), credentials.createInsecure());
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${key}`);
  return new Promise<Buffer>((resolve, reject) =>
    client.makeUnaryRequest(
      TRACE_EXPORT_PATH,
      (value: Buffer) => value,
      (value: Buffer) => value,
      Buffer.from(request),
      metadata,
      (error, response) => (error ? reject(error) : resolve(response!)),
    ),
  ).finally(() => client.close());
}

const grpcCode = (result: ExportResult) => (result.error as ServiceError | undefined)?.code;

describe.each(TEST_DATABASE_KINDS)('OTLP over gRPC on %s', (kind) => {
  let server: TestServer;
  let grpc: GrpcListener;
  let url: string;
  beforeAll(async () => {
    server = await startTestServer(kind, { maxBodyBytes: MAX_BODY });
    grpc = await listenGrpc(
      { host: '127.0.0.1', port: 0, maxBodyBytes: MAX_BODY },
      otlpEndpointDeps,
    );
    url = `http://127.0.0.1:${grpc.port}`;
  });
  afterAll(async () => {
    await grpc?.close();
    await server?.close();
  });

  const spanIds = async (runIdPrefix: string) => {
    await server.stored();
    return (
      await rawRows(
        server.database.db,
        sql`select s.trace_id || ':' || s.span_id as id from spans s
            join trace_runs t on t.project_id = s.project_id and t.trace_id = s.trace_id
            where t.run_id like ${`${runIdPrefix}%`}`,
      )
    ).map((r) => String(r.id));
  };

  it.each([false, true])(
    'stores what a real exporter sends (gzip %s) and derives its runs',
    async (gzip) => {
      const emitted = new Set<string>();
      const sender = createSender({ url, key: server.key, protocol: 'grpc', gzip, emitted });
      const prefix = `grpc-${gzip ? 'gzip' : 'plain'}-`;
      for (let k = 0; k < 3; k++) emitRun(sender.tracer, restartLoop({ runId: `${prefix}${k}` }));
      await sender.flush();
      await sender.shutdown();
      expect(emitted.size).toBe(15);
      expect((await spanIds(prefix)).sort()).toEqual([...emitted].sort());
      await server.settle();
      const runs = await rawRows(
        server.database.db,
        sql`select id, exit_category, step_count from runs where id like ${`${prefix}%`} order by id`,
      );
      expect(runs).toEqual(
        [0, 1, 2].map((k) => ({
          id: `${prefix}${k}`,
          exit_category: 'no_progress',
          step_count: 4,
        })),
      );
    },
  );

  it('refuses a wrong key with UNAUTHENTICATED and stores nothing', async () => {
    const spans = recordSpans((tracer) => emitRun(tracer, restartLoop({ runId: 'grpc-wrong' })));
    const result = await exportOnce(url, 'lsk_not-a-key-of-anyone-0123456789', spans);
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(grpcCode(result)).toBe(status.UNAUTHENTICATED);
    expect(await spanIds('grpc-wrong')).toEqual([]);
    // And without any key at all.
    const none = await exportOnce(url, '', spans);
    expect(grpcCode(none)).toBe(status.UNAUTHENTICATED);
  });

  it('refuses a request over the body limit with RESOURCE_EXHAUSTED, then takes the next', async () => {
    const big = recordSpans((tracer) => {
      const span = tracer.startSpan('agent', {
        attributes: { 'loop.run.id': 'grpc-big', 'loop.goal': 'x'.repeat(2 * MAX_BODY) },
      });
      span.end();
    });
    for (const gzip of [false, true]) {
      const result = await exportOnce(url, server.key, big, gzip);
      expect(grpcCode(result)).toBe(status.RESOURCE_EXHAUSTED);
      // No RetryInfo: the same request will never fit, so it is not worth sending again.
      expect((result.error as ServiceError).metadata.get('grpc-status-details-bin')).toEqual([]);
    }
    expect(await spanIds('grpc-big')).toEqual([]);
    const small = recordSpans((tracer) => emitRun(tracer, restartLoop({ runId: 'grpc-small' })));
    expect((await exportOnce(url, server.key, small)).code).toBe(ExportResultCode.SUCCESS);
    expect(await spanIds('grpc-small')).toHaveLength(5);
  });

  it('answers partial_success for exactly the spans it refuses, and stores the rest', async () => {
    const types = loadOtlpTypes();
    const traceId = Buffer.from('c0ffee000000000000000000000000a1', 'hex');
    const span = (spanId: string) => ({
      traceId,
      spanId: Buffer.from(spanId, 'hex'),
      name: 'agent',
      startTimeUnixNano: 1_700_000_000_000_000_000n.toString(),
      endTimeUnixNano: 1_700_000_001_000_000_000n.toString(),
    });
    const request = types.request
      .encode(
        types.request.fromObject({
          resourceSpans: [{ scopeSpans: [{ spans: [span('0000000000000001'), span('abcd')] }] }],
        }),
      )
      .finish();
    const response = types.response.toObject(
      types.response.decode(await rawExport(url, server.key, request)),
      { longs: String },
    );
    expect(response).toEqual({
      partialSuccess: { rejectedSpans: '1', errorMessage: expect.stringMatching(/spanId/) },
    });
    await server.stored();
    const stored = await rawRows(
      server.database.db,
      sql`select span_id from spans where trace_id = ${traceId.toString('hex')}`,
    );
    expect(stored).toEqual([{ span_id: '0000000000000001' }]);
  });

  it('keys a span to its project: another project’s key stores it there, not here', async () => {
    const other = await server.newProject('grpc-other');
    const spans = recordSpans((tracer) =>
      emitRun(tracer, restartLoop({ runId: 'grpc-elsewhere' })),
    );
    expect((await exportOnce(url, other.key, spans)).code).toBe(ExportResultCode.SUCCESS);
    await server.stored();
    const rows = await rawRows(
      server.database.db,
      sql`select distinct project_id from trace_runs where run_id = 'grpc-elsewhere'`,
    );
    expect(rows).toEqual([{ project_id: other.projectId }]);
  });
});

describe('OTLP over gRPC while the database is down', () => {
  it('answers UNAVAILABLE with RetryInfo, and takes the same spans once it is back', async () => {
    const pg = createThrowawayPostgres(freePort());
    pg.start();
    let runtime: Runtime | null = null;
    let grpc: GrpcListener | null = null;
    try {
      runtime = createRuntime(readServerConfig({ DATABASE_URL: pg.url }), () => {});
      await connectDatabase(runtime, () => {});
      const db = runtime.handle!.db;
      const { key } = await createApiKey(db, await ensureProject(db, 'default'));
      grpc = await listenGrpc(
        { host: '127.0.0.1', port: 0, maxBodyBytes: MAX_BODY },
        otlpEndpointDeps,
      );
      const url = `http://127.0.0.1:${grpc.port}`;
      const spans = recordSpans((tracer) => emitRun(tracer, restartLoop({ runId: 'grpc-outage' })));

      pg.stop();
      const refused = await exportOnce(url, key, spans);
      expect(grpcCode(refused)).toBe(status.UNAVAILABLE);
      const details = (refused.error as ServiceError).metadata.get('grpc-status-details-bin');
      expect(details).toHaveLength(1);
      expect(Buffer.from(details[0] as Buffer).toString('latin1')).toContain(RETRY_INFO_TYPE);

      pg.start();
      let accepted: ExportResult | null = null;
      for (
        let attempt = 0;
        attempt < 60 && accepted?.code !== ExportResultCode.SUCCESS;
        attempt++
      ) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500));
        accepted = await exportOnce(url, key, spans);
      }
      expect(accepted?.code).toBe(ExportResultCode.SUCCESS);
      await runtime.spoolWorkers?.workers.drained();
      const stored = await rawRows(
        db,
        sql`select count(*)::int as n from spans where trace_id = ${spans[0]!.spanContext().traceId}`,
      );
      expect(stored).toEqual([{ n: 5 }]);
    } finally {
      await grpc?.close();
      await runtime?.spoolWorkers?.stop();
      runtime?.deriver.stop();
      await runtime?.handle?.close().catch(() => {});
      pg.destroy();
    }
  }, 120_000);
});

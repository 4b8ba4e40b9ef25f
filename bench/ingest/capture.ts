// The workload's request bodies as the real exporter sends them: SDK spans exported through the
// OTLP/protobuf exporter (gzip on) to a local server that keeps each body, inflated, as ingest
// would read it. Decoded with ingest's own decoder and validator, they are the rows that COPY
// and the write stage take, and the payloads the decoders race on.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { decodeOtlpBody } from '../../ingest/read-body';
import { validateSpans } from '../../ingest/validate';
import type { ValidSpan } from '../../ingest/validate';
import { createSpanSource } from './sdk-spans';

export interface CapturedPayloads {
  /** Protobuf bodies, inflated: what the decoder reads. */
  bodies: Uint8Array[];
  /** Bytes on the wire (gzipped), all bodies. */
  wireBytes: number;
}

export async function capturePayloads(options: {
  batches: number;
  batchSize: number;
  stepsPerRun: number;
  seed: number;
}): Promise<CapturedPayloads> {
  const bodies: Uint8Array[] = [];
  let wireBytes = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      wireBytes += body.length;
      const inflated = req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
      bodies.push(new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.length));
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const exporter = new OTLPTraceExporter({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    compression: 'gzip' as never,
  });
  const source = createSpanSource(options);
  try {
    for (let k = 0; k < options.batches; k++) {
      const batch: ReadableSpan[] = k === options.batches - 1 ? lastBatch() : source.nextBatch();
      await new Promise<void>((resolve, reject) =>
        exporter.export(batch as never, (result) =>
          result.code === 0 ? resolve() : reject(result.error ?? new Error('capture failed')),
        ),
      );
    }
  } finally {
    await exporter.shutdown();
    await source.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return { bodies, wireBytes };

  // The last batch completes the runs begun, so every run has its root.
  function lastBatch(): ReadableSpan[] {
    const full = source.nextBatch();
    return [...full, ...source.flush()];
  }
}

/** The bodies decoded and validated as ingest does: what `ingestSpans` receives per request. */
export function decodePayloads(bodies: readonly Uint8Array[]): ValidSpan[][] {
  return bodies.map((body) => {
    const { spans, rejectedCount } = validateSpans(decodeOtlpBody('protobuf', body));
    if (rejectedCount > 0) throw new Error(`the validator rejected ${rejectedCount} bench spans`);
    return spans;
  });
}

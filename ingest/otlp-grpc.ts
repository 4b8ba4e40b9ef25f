// OTLP over gRPC: `TraceService/Export`, the gRPC adapter of `exportTraces`, spoken on Node's own
// HTTP/2 streams. gRPC libraries read a whole message into memory before a handler sees its
// metadata; here the stream is the body, so a gRPC call goes through the same door as
// POST /v1/traces: the key is checked from the headers before a byte of the message is read, its
// bytes count against the one budget of bodies held, and a slow message is cut at the same
// deadline. Outcomes are answered as the OTLP spec maps them onto gRPC status codes.
import { constants as http2 } from 'node:http2';
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import type { Readable } from 'node:stream';
import { describeError, toAppError } from '../db/errors';
import { keyFromAuthorization } from '../lib/door/api-key';
import { AppError } from '../lib/app-error';
import { exportTraces } from './export-traces';
import type { ExportRequest } from './export-traces';
import { encodeExportResponse, encodeRpcStatus, GRPC_CODE } from './otlp/encode-response';
import type { OtlpEndpointDeps } from './otlp-endpoint';

export const TRACE_EXPORT_PATH = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';

/** gRPC status codes used by the door itself (the rest come from GRPC_CODE). */
export const GRPC_STATUS = {
  OK: 0,
  INVALID_ARGUMENT: 3,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
} as const;

/** What to answer a call with when it fails: code, message, and when to retry (RetryInfo). */
export interface GrpcRefusal {
  code: number;
  message: string;
  retryAfterSeconds?: number;
}

const FRAME_HEADER_BYTES = 5;

/**
 * Serves one call on its stream: checks the method, path and encodings, then runs the export
 * with the stream's message as the body. Always answers (trailers carry the status) and never
 * throws; the returned promise settles once the answer is written.
 */
export async function serveGrpcExport(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  deps: () => OtlpEndpointDeps,
  maxBodyBytes: number,
): Promise<void> {
  const problem = callProblem(headers);
  if (problem) return refuse(stream, problem);
  let log: ((message: string) => void) | undefined;
  try {
    const resolved = deps();
    log = resolved.log;
    const message = grpcMessage(stream, maxBodyBytes);
    const request: ExportRequest = {
      key: keyFromGrpcHeaders(headers),
      format: 'protobuf',
      // Known once the message's frame header is read, which is before anything asks.
      get gzipped() {
        return message.compressed();
      },
      declaredBytes: null,
      body: message.body,
    };
    const result = await exportTraces(request, resolved);
    answer(stream, encodeExportResponse('protobuf', result));
  } catch (error) {
    refuse(stream, refusalOf(error, log));
  }
}

/** The key from the `authorization` metadata (`Bearer <key>`), or `x-api-key`. */
export function keyFromGrpcHeaders(headers: IncomingHttpHeaders): string | null {
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && authorization !== '')
    return keyFromAuthorization(authorization);
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey.trim() || null : null;
}

function callProblem(headers: IncomingHttpHeaders): GrpcRefusal | null {
  if (headers[':method'] !== 'POST' || headers[':path'] !== TRACE_EXPORT_PATH) {
    return {
      code: GRPC_STATUS.UNIMPLEMENTED,
      message: `${headers[':method']} ${String(headers[':path']).slice(0, 200)}: this server serves ${TRACE_EXPORT_PATH} only`,
    };
  }
  const contentType = String(headers['content-type'] ?? '');
  if (!/^application\/grpc(\+proto)?(;|$)/i.test(contentType)) {
    return {
      code: GRPC_STATUS.INVALID_ARGUMENT,
      message: `content-type ${JSON.stringify(contentType.slice(0, 100))}: send application/grpc`,
    };
  }
  const encoding = String(headers['grpc-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip') {
    return {
      code: GRPC_STATUS.UNIMPLEMENTED,
      message: `grpc-encoding ${JSON.stringify(encoding.slice(0, 100))}: send gzip or identity`,
    };
  }
  return null;
}

/**
 * The one message of a unary call as a body stream: the 5-byte frame header read first (a length
 * past the limit refused before anything else arrives), then the message's bytes pulled off the
 * HTTP/2 stream only as the reader asks, so an unread message waits in flow control, not memory.
 */
function grpcMessage(source: ServerHttp2Stream, maxBytes: number) {
  let compressed: boolean | null = null;
  let remaining = -1;
  let header = Buffer.alloc(0);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const chunk = await nextChunk(source);
        if (chunk === null) {
          if (compressed === null && header.length === 0) throw emptyCall();
          if (remaining !== 0) throw cutShort();
          controller.close();
          return;
        }
        let rest = chunk;
        if (compressed === null) {
          header = Buffer.concat([header, rest]);
          if (header.length < FRAME_HEADER_BYTES) continue;
          compressed = header[0] === 1;
          if ((header[0] ?? 0) > 1) throw badFrame(`flag ${header[0]}`);
          remaining = header.readUInt32BE(1);
          if (remaining > maxBytes) {
            throw new AppError(
              'payload_too_large',
              `gRPC message of ${remaining} bytes exceeds the limit of ${maxBytes} bytes`,
            );
          }
          rest = header.subarray(FRAME_HEADER_BYTES);
        }
        if (rest.length > remaining) throw badFrame('more than one message in a unary call');
        remaining -= rest.length;
        if (rest.length > 0) {
          controller.enqueue(new Uint8Array(rest.buffer, rest.byteOffset, rest.length));
          return;
        }
      }
    },
    // A refused message is never read to its end: the answer resets the stream.
    cancel() {
      source.pause();
    },
  });
  return {
    body,
    compressed: () => compressed === true,
  };
}

/** The next chunk the peer sent, null at the end of its half of the stream. */
function nextChunk(source: Readable): Promise<Buffer | null> {
  const ready = source.read() as Buffer | null;
  if (ready !== null) return Promise.resolve(ready);
  if (source.readableEnded) return Promise.resolve(null);
  return new Promise<Buffer | null>((resolve, reject) => {
    const settle = (then: () => void) => {
      source.off('readable', onReadable);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      then();
    };
    const onReadable = () => settle(() => resolve(nextChunk(source)));
    const onEnd = () => settle(() => resolve(null));
    const onError = (error: Error) => settle(() => reject(error));
    const onClose = () => settle(() => reject(new Error('the client reset the call')));
    source.on('readable', onReadable);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
  });
}

const emptyCall = () =>
  new AppError('bad_request', 'the call carried no message: send one ExportTraceServiceRequest');
const cutShort = () => new AppError('bad_request', 'the gRPC message ended before its length');
const badFrame = (what: string) => new AppError('bad_request', `gRPC framing: ${what}`);

function refusalOf(error: unknown, log?: (message: string) => void): GrpcRefusal {
  const appError = toAppError(
    error,
    (unexpected) => log?.(`ingest over gRPC failed: ${describeError(unexpected, { stack: true })}`),
    'ingest',
  );
  const retryable = appError.code === 'rate_limited' || appError.code === 'unavailable';
  return {
    code: GRPC_CODE[appError.code],
    message: appError.message,
    // RetryInfo tells a client that RESOURCE_EXHAUSTED (otherwise final) and UNAVAILABLE are
    // worth sending again, and when.
    retryAfterSeconds: retryable ? (appError.retryAfterSeconds ?? 1) : undefined,
  };
}

function answer(stream: ServerHttp2Stream, message: Uint8Array): void {
  if (stream.destroyed || stream.closed) return;
  const frame = Buffer.alloc(FRAME_HEADER_BYTES + message.byteLength);
  frame.writeUInt32BE(message.byteLength, 1);
  frame.set(message, FRAME_HEADER_BYTES);
  stream.respond(
    { ':status': 200, 'content-type': 'application/grpc', 'grpc-accept-encoding': 'identity,gzip' },
    { waitForTrailers: true },
  );
  stream.once('wantTrailers', () => stream.sendTrailers({ 'grpc-status': String(GRPC_STATUS.OK) }));
  stream.end(frame);
}

/**
 * A trailers-only answer with the status, its message and RetryInfo when the call is worth
 * sending again; then the stream is reset, so an unread message stops arriving.
 */
export function refuse(stream: ServerHttp2Stream, refusal: GrpcRefusal): void {
  if (stream.destroyed || stream.closed) return;
  const headers: Record<string, string | number> = {
    ':status': 200,
    'content-type': 'application/grpc',
    'grpc-status': String(refusal.code),
    'grpc-message': percentEncode(refusal.message),
  };
  if (refusal.retryAfterSeconds !== undefined) {
    headers['grpc-status-details-bin'] = Buffer.from(
      encodeRpcStatus(refusal.code, refusal.message, refusal.retryAfterSeconds),
    ).toString('base64');
  }
  stream.respond(headers, { endStream: true });
  if (!stream.readableEnded) stream.close(http2.NGHTTP2_NO_ERROR);
}

/** grpc-message is percent-encoded UTF-8: printable ASCII but `%` passes as it is. */
function percentEncode(message: string): string {
  let out = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

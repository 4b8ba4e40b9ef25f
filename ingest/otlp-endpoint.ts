// POST /v1/traces as the OTLP/HTTP specification says: the HTTP adapter of `exportTraces`. It
// reads the headers, hands the body over as it arrives, and answers in the request's content
// type; a 200 means every accepted span is committed (its runs are derived after the commit,
// by derive/). Two transports call it: Next's route (a fetch Request) and the custom server's
// fast path before Next's router (server/ingest-fast-path.ts); both answer byte for byte alike.
import { describeError, toAppError } from '../db/errors';
import { keyFromHeaders } from '../lib/door/api-key';
import { exportTraces } from './export-traces';
import type { IngestDeps } from './export-traces';
import { encodeErrorBody, encodeExportResponse, OTLP_CONTENT_TYPE } from './otlp/encode-response';
import type { OtlpFormat } from './otlp/types';
import { declaredLength, parseContentEncoding, parseContentType } from './read-body';

export interface OtlpEndpointDeps extends IngestDeps {
  log?: (message: string) => void;
}

/** An export request as any HTTP transport sees it: its headers and its body as it arrives. */
export interface OtlpHttpRequest {
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
}

/** The answer to write back: status, headers, body. */
export interface OtlpHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export async function handleOtlpExport(
  request: Request,
  deps: OtlpEndpointDeps,
): Promise<Response> {
  const answer = await answerOtlpExport(request, () => deps);
  return new Response(answer.body as Uint8Array<ArrayBuffer>, {
    status: answer.status,
    headers: answer.headers,
  });
}

/**
 * The endpoint's whole behaviour, transport aside. `deps` is asked for inside, so a server that
 * is still starting answers in OTLP's own error form too.
 */
export async function answerOtlpExport(
  request: OtlpHttpRequest,
  deps: () => OtlpEndpointDeps,
): Promise<OtlpHttpAnswer> {
  let format: OtlpFormat = 'json';
  let log: ((message: string) => void) | undefined;
  try {
    format = parseContentType(request.headers.get('content-type'));
    const resolved = deps();
    log = resolved.log;
    const result = await exportTraces(
      {
        key: keyFromHeaders(request.headers),
        format,
        gzipped: parseContentEncoding(request.headers.get('content-encoding')),
        declaredBytes: declaredLength(request.headers.get('content-length')),
        body: request.body,
      },
      resolved,
    );
    return {
      status: 200,
      headers: { 'content-type': OTLP_CONTENT_TYPE[format] },
      body: encodeExportResponse(format, result),
    };
  } catch (error) {
    return errorAnswer(format, error, log);
  }
}

function errorAnswer(
  format: OtlpFormat,
  error: unknown,
  log?: (message: string) => void,
): OtlpHttpAnswer {
  const appError = toAppError(
    error,
    (unexpected) => log?.(`ingest failed: ${describeError(unexpected, { stack: true })}`),
    'ingest',
  );
  const headers: Record<string, string> = {
    'content-type': OTLP_CONTENT_TYPE[format],
    // A refusal may leave the rest of the body unread (a slow one is never read to its end):
    // the connection cannot carry another request.
    connection: 'close',
  };
  if (appError.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(appError.retryAfterSeconds);
  }
  return {
    status: appError.status,
    headers,
    body: encodeErrorBody(format, appError.code, appError.message),
  };
}

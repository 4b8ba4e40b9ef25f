// POST /v1/traces as the OTLP/HTTP specification says: the HTTP adapter of `exportTraces`. It
// reads the headers, hands the body over as it arrives, and answers in the request's content
// type; a 200 means every accepted span is committed (its runs are derived after the commit,
// by derive/).
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

export async function handleOtlpExport(
  request: Request,
  deps: OtlpEndpointDeps,
): Promise<Response> {
  let format: OtlpFormat = 'json';
  try {
    format = parseContentType(request.headers.get('content-type'));
    const result = await exportTraces(
      {
        key: keyFromHeaders(request.headers),
        format,
        gzipped: parseContentEncoding(request.headers.get('content-encoding')),
        declaredBytes: declaredLength(request.headers.get('content-length')),
        body: request.body,
      },
      deps,
    );
    return otlpResponse(200, format, encodeExportResponse(format, result));
  } catch (error) {
    return errorResponse(format, error, deps.log);
  }
}

function errorResponse(
  format: OtlpFormat,
  error: unknown,
  log?: (message: string) => void,
): Response {
  const appError = toAppError(
    error,
    (unexpected) => log?.(`ingest failed: ${describeError(unexpected, { stack: true })}`),
    'ingest',
  );
  const response = otlpResponse(
    appError.status,
    format,
    encodeErrorBody(format, appError.code, appError.message),
  );
  // A refusal may leave the rest of the body unread (a slow one is never read to its end): the
  // connection cannot carry another request.
  response.headers.set('connection', 'close');
  if (appError.retryAfterSeconds !== undefined) {
    response.headers.set('retry-after', String(appError.retryAfterSeconds));
  }
  return response;
}

function otlpResponse(status: number, format: OtlpFormat, body: Uint8Array): Response {
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status,
    headers: { 'content-type': OTLP_CONTENT_TYPE[format] },
  });
}

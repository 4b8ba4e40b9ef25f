// POST /v1/traces as the OTLP/HTTP specification says: authenticate, admit, read (size-limited,
// gzip), decode, validate, store the spans and mark their runs in one transaction, then answer
// in the request's content type. A 200 means every accepted span is committed; the runs are
// derived after the commit (derive/).
import type { Database } from '../db/client';
import { describeError, toAppError } from '../db/errors';
import { AppError } from '../lib/app-error';
import { keyFromHeaders } from '../lib/api-key';
import type { Admission } from './admission';
import { ingestSpans } from './ingest-spans';
import {
  encodeErrorBody,
  encodeExportResponse,
  OTLP_CONTENT_TYPE,
  rejectionMessage,
} from './otlp/encode-response';
import type { OtlpFormat } from './otlp/types';
import { decodeOtlpBody, parseContentType, readOtlpRequest } from './read-body';
import { validateSpans } from './validate';

export interface OtlpEndpointDeps {
  /** The database, or an AppError('unavailable') while it is not ready. */
  database(): Database;
  /** The project id a key belongs to, or null. */
  authenticate(key: string): Promise<string | null>;
  /** Called once a request's spans are committed (the deriver's cue). */
  afterCommit?: () => void;
  admission: Admission;
  /** True while derivation lags too far behind this project's ingest: accept no more until it catches up. */
  backlogged?: (projectId: string) => boolean;
  maxBodyBytes: number;
  log?: (message: string) => void;
}

export async function handleOtlpExport(
  request: Request,
  deps: OtlpEndpointDeps,
): Promise<Response> {
  let format: OtlpFormat = 'json';
  try {
    format = parseContentType(request.headers.get('content-type'));
    const key = keyFromHeaders(request.headers);
    if (!key) throw new AppError('unauthorized', 'send Authorization: Bearer <project API key>');
    const db = deps.database();
    deps.admission.refuseIfFull();
    const projectId = await deps.authenticate(key);
    if (!projectId) throw new AppError('unauthorized', 'the API key is unknown or revoked');
    deps.admission.refuseIfFull(deps.backlogged?.(projectId) ?? false);

    return await deps.admission.run(async () => {
      const { body } = await readOtlpRequest(request, { maxBytes: deps.maxBodyBytes });
      const decoded = decodeOtlpBody(format, body);
      const { spans, rejectedCount, messages } = validateSpans(decoded);
      await ingestSpans(db, projectId, spans);
      deps.afterCommit?.();
      const partial = {
        rejectedSpans: rejectedCount,
        errorMessage: rejectionMessage(rejectedCount, messages),
      };
      return otlpResponse(200, format, encodeExportResponse(format, partial));
    });
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
  // The rest of a refused body is never read: the connection cannot carry another request.
  if (appError.code === 'payload_too_large') response.headers.set('connection', 'close');
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

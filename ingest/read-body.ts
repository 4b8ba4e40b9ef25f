import { gunzip } from 'node:zlib';
import { AppError } from '../lib/app-error';
import { decodeJsonRequest } from './otlp/decode-json';
import { decodeProtobufRequest } from './otlp/decode-protobuf';
import type { DecodedRequest, OtlpFormat } from './otlp/types';

/** The OTLP spec recommends 20 MiB, counted before and after decompression. */
export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;

export interface OtlpBody {
  format: OtlpFormat;
  /** The body as sent, inflated when it came gzipped. */
  body: Uint8Array;
}

/**
 * Reads an OTLP/HTTP request body: checks Content-Type (415) and Content-Encoding (415), stops reading
 * as soon as more than `maxBytes` arrive (413), and inflates gzip up to `maxBytes` (413; corrupt → 400).
 */
export async function readOtlpRequest(
  request: Request,
  { maxBytes = DEFAULT_MAX_BODY_BYTES }: { maxBytes?: number } = {},
): Promise<OtlpBody> {
  const format = parseContentType(request.headers.get('content-type'));
  const gzipped = parseContentEncoding(request.headers.get('content-encoding'));
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > maxBytes) {
    throw tooLarge(`request body of ${declared.trim()} bytes`, maxBytes);
  }
  const raw = await readLimited(request.body, maxBytes);
  return { format, body: gzipped ? await inflate(raw, maxBytes) : raw };
}

/** Decodes a body read by `readOtlpRequest`. An empty body carries no spans (the spec says: answer success). */
export function decodeOtlpBody(format: OtlpFormat, body: Uint8Array): DecodedRequest {
  if (body.length === 0) return { spans: [] };
  if (format === 'protobuf') return decodeProtobufRequest(body);
  return decodeJsonRequest(utf8.decode(body));
}

// Non-fatal like the protobuf string decoder: invalid UTF-8 becomes U+FFFD; a BOM is dropped.
const utf8 = new TextDecoder('utf-8');

export function parseContentType(header: string | null): OtlpFormat {
  const mediaType = (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'application/x-protobuf') return 'protobuf';
  if (mediaType === 'application/json') return 'json';
  const got =
    mediaType === ''
      ? 'no Content-Type'
      : `Content-Type ${JSON.stringify(mediaType.slice(0, 100))}`;
  throw new AppError(
    'unsupported_media_type',
    `${got}: send application/x-protobuf or application/json`,
  );
}

/** True for gzip; false for identity or none. */
export function parseContentEncoding(header: string | null): boolean {
  const codings = (header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return false;
  if (codings.length === 1 && (codings[0] === 'gzip' || codings[0] === 'x-gzip')) return true;
  throw new AppError(
    'unsupported_media_type',
    `unsupported Content-Encoding ${JSON.stringify(codings.join(', ').slice(0, 100))}: send gzip or identity`,
  );
}

async function readLimited(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new AppError('bad_request', `could not read the request body: ${reason}`, {
          cause: error,
        });
      });
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        // Stop reading now: the rest of the body is never pulled off the connection.
        await reader.cancel().catch(() => undefined);
        throw tooLarge('request body', maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

function inflate(compressed: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    // maxOutputLength makes zlib stop inflating at the limit, so a gzip bomb costs at most maxBytes.
    gunzip(compressed, { maxOutputLength: Math.max(1, maxBytes) }, (error, result) => {
      if (error === null) resolve(new Uint8Array(result.buffer, result.byteOffset, result.length));
      else if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        reject(tooLarge('gzip body inflated', maxBytes));
      else reject(new AppError('malformed_body', `gzip: ${error.message}`));
    });
  });
}

function tooLarge(what: string, maxBytes: number): AppError {
  return new AppError('payload_too_large', `${what} exceeds the limit of ${maxBytes} bytes`);
}

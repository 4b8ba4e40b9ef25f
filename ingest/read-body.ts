import { gunzip, gunzipSync } from 'node:zlib';
import { AppError } from '../lib/app-error';
import { decodeJsonRequest } from './otlp/decode-json';
import { decodeProtobufRequest } from './otlp/decode-protobuf';
import type { DecodedRequest, OtlpFormat } from './otlp/types';

/** The OTLP spec recommends 20 MiB, counted before and after decompression. */
export const DEFAULT_MAX_BODY_BYTES = 20 * 1024 * 1024;
/** A whole body must arrive within this long. */
export const DEFAULT_BODY_TIMEOUT_MS = 15_000;
/** ... and, after the first second, at least this fast on average. */
export const DEFAULT_BODY_MIN_BYTES_PER_SECOND = 16 * 1024;
const BODY_GRACE_MS = 1000;

export interface BodyLimits {
  maxBytes?: number;
  /** Told each chunk's size as it arrives; may throw to stop reading (a bound of bytes held). */
  onChunk?: (bytes: number) => void;
  /** 0 turns the deadline off. */
  timeoutMs?: number;
  /** 0 turns the minimum rate off. */
  minBytesPerSecond?: number;
  /**
   * Whether the minimum rate holds now (by default, always): a caller with room to spare lets a
   * slow body go on arriving until the deadline, and cuts it for its pace once room runs short.
   */
  paceEnforced?: () => boolean;
}

export interface OtlpBody {
  format: OtlpFormat;
  /** The body as sent, inflated when it came gzipped. */
  body: Uint8Array;
}

/**
 * Reads an OTLP/HTTP request body: checks Content-Type (415) and Content-Encoding (415), then
 * `readBody`.
 */
export async function readOtlpRequest(
  request: Request,
  limits: BodyLimits = {},
): Promise<OtlpBody> {
  const format = parseContentType(request.headers.get('content-type'));
  const gzipped = parseContentEncoding(request.headers.get('content-encoding'));
  const body = await readBody(request.body, {
    gzipped,
    declaredBytes: declaredLength(request.headers.get('content-length')),
    ...limits,
  });
  return { format, body };
}

/**
 * Reads a body as it arrives: stops as soon as more than `maxBytes` arrive (413), cuts a body
 * that comes too slowly (408: slower than `minBytesPerSecond` after the first second, or not
 * whole within `timeoutMs`), and inflates gzip up to `maxBytes` (413; corrupt → 400).
 */
export async function readBody(
  stream: ReadableStream<Uint8Array> | null,
  options: BodyLimits & { gzipped: boolean; declaredBytes?: number | null },
): Promise<Uint8Array> {
  return inflateSent(await readSentBody(stream, options), options);
}

/** The body's bytes as they arrive, within the size and pace limits; not inflated. */
export async function readSentBody(
  stream: ReadableStream<Uint8Array> | null,
  options: BodyLimits & { declaredBytes?: number | null },
): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (options.declaredBytes != null && options.declaredBytes > maxBytes) {
    throw tooLarge(`request body of ${options.declaredBytes} bytes`, maxBytes);
  }
  return readLimited(
    stream,
    maxBytes,
    {
      timeoutMs: options.timeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
      minBytesPerSecond: options.minBytesPerSecond ?? DEFAULT_BODY_MIN_BYTES_PER_SECOND,
      enforced: options.paceEnforced ?? (() => true),
    },
    options.onChunk,
  );
}

/** A body read by `readSentBody`, inflated up to the body limit when it came gzipped. */
export function inflateSent(
  sent: Uint8Array,
  options: { gzipped: boolean; maxBytes?: number },
): Uint8Array {
  return options.gzipped ? inflateNow(sent, options.maxBytes ?? DEFAULT_MAX_BODY_BYTES) : sent;
}

/** Content-Length as a number, or null when absent or not a plain count. */
export function declaredLength(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header.trim());
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
  pace: Pace,
  onChunk: (bytes: number) => void = () => {},
): Promise<Uint8Array> {
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  const started = Date.now();
  let total = 0;
  const slow = new SlowBody(started, pace);
  try {
    for (;;) {
      const { done, value } = await slow.race(
        reader.read().catch((error: unknown) => {
          // A transport that frames the body (gRPC) refuses with its own reason.
          if (error instanceof AppError) throw error;
          const reason = error instanceof Error ? error.message : String(error);
          throw new AppError('bad_request', `could not read the request body: ${reason}`, {
            cause: error,
          });
        }),
        total,
      );
      if (done) break;
      total += value.length;
      if (total > maxBytes) throw tooLarge('request body', maxBytes);
      onChunk(value.length);
      chunks.push(compact(value));
    }
  } catch (error) {
    // Stop reading now: the rest of the body is never pulled off the connection.
    void reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    slow.stop();
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

/**
 * The chunk on storage of its own size. Sockets hand over views of larger reads (HTTP/2 gives
 * 16 KiB frames in 64 KiB buffers): held as they come, a body counted as N bytes would keep
 * up to 4 N in memory, and the bound of bodies held would not bound memory.
 */
function compact(chunk: Uint8Array): Uint8Array {
  return chunk.buffer.byteLength > 2 * chunk.byteLength ? new Uint8Array(chunk) : chunk;
}

interface Pace {
  timeoutMs: number;
  minBytesPerSecond: number;
  /** Whether the minimum rate holds now; the deadline always does. */
  enforced: () => boolean;
}

// While the minimum rate is not enforced, a late body is looked at again this often.
const PACE_RECHECK_MS = 250;

/**
 * The body's pace: after `total` bytes, the next chunk is due by the time the average rate would
 * fall under the minimum (counted from one second after the start), and never after the deadline.
 * A body trickling a byte every few seconds is cut about a second in, while the minimum rate is
 * enforced; while it is not, at the deadline, or as soon as it is enforced again.
 */
class SlowBody {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly started: number,
    private readonly pace: Pace,
  ) {}

  race<T>(read: Promise<T>, total: number): Promise<T> {
    const due = this.dueBy(total);
    if (due === Infinity) return read;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      clearTimeout(this.timer);
      // Timers run before the loop reads sockets: after the server itself was busy, bytes that
      // did arrive in time are still unread when the timer fires. Cut only if, once the loop has
      // read what is there (setImmediate runs after that), nothing came.
      const check = () => {
        if (settled) return;
        const deadline = this.deadline();
        if (!this.pace.enforced() && Date.now() < deadline) {
          this.timer = setTimeout(
            () => setImmediate(check),
            Math.min(PACE_RECHECK_MS, Math.max(0, deadline - Date.now())),
          );
          return;
        }
        reject(this.cut(total));
      };
      this.timer = setTimeout(() => setImmediate(check), Math.max(0, due - Date.now()));
      read.then(
        (value) => {
          settled = true;
          clearTimeout(this.timer);
          resolve(value);
        },
        (error: unknown) => {
          settled = true;
          clearTimeout(this.timer);
          reject(error);
        },
      );
    });
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private deadline(): number {
    return this.pace.timeoutMs > 0 ? this.started + this.pace.timeoutMs : Infinity;
  }

  private dueBy(total: number): number {
    const { minBytesPerSecond } = this.pace;
    const deadline = this.deadline();
    const byRate =
      minBytesPerSecond > 0
        ? this.started + BODY_GRACE_MS + ((total + 1) / minBytesPerSecond) * 1000
        : Infinity;
    return Math.min(deadline, byRate);
  }

  private cut(total: number): AppError {
    const elapsed = ((Date.now() - this.started) / 1000).toFixed(1);
    const { timeoutMs, minBytesPerSecond } = this.pace;
    const rule = [
      minBytesPerSecond > 0 ? `at least ${minBytesPerSecond} bytes/s after the first second` : '',
      timeoutMs > 0 ? `whole within ${timeoutMs / 1000} s` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return new AppError(
      'request_timeout',
      `the request body came too slowly (${total} bytes in ${elapsed} s; send it ${rule})`,
    );
  }
}

export function inflate(compressed: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    // maxOutputLength makes zlib stop inflating at the limit, so a gzip bomb costs at most maxBytes.
    gunzip(compressed, { maxOutputLength: Math.max(1, maxBytes) }, (error, result) => {
      if (error === null) resolve(new Uint8Array(result.buffer, result.byteOffset, result.length));
      else reject(gunzipFailure(error, maxBytes));
    });
  });
}

/**
 * `inflate` on this thread. For a request at work, about to be decoded on this thread anyway: the
 * threadpool's inflate costs a turn of the event loop to come back, which under load is longer
 * than the inflate (the bench's 34 KB batch inflates to 387 KB in 0.5 to 0.7 ms here; decoding
 * it takes 3.3 to 3.6), and a slot at work waited out that turn.
 */
export function inflateNow(compressed: Uint8Array, maxBytes: number): Uint8Array {
  try {
    const result = gunzipSync(compressed, { maxOutputLength: Math.max(1, maxBytes) });
    return new Uint8Array(result.buffer, result.byteOffset, result.length);
  } catch (error) {
    throw gunzipFailure(error as Error, maxBytes);
  }
}

/** 413 for a body that inflates past the limit (a gzip bomb stops there); 400 for one that is not gzip. */
function gunzipFailure(error: Error, maxBytes: number): AppError {
  if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
    return tooLarge('gzip body inflated', maxBytes);
  return new AppError('malformed_body', `gzip: ${error.message}`);
}

function tooLarge(what: string, maxBytes: number): AppError {
  return new AppError('payload_too_large', `${what} exceeds the limit of ${maxBytes} bytes`);
}

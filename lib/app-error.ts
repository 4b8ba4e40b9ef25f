// One error type for every expected failure; app/ maps the code to an HTTP status in one place.
export const APP_ERROR_STATUS = {
  bad_request: 400,
  malformed_body: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  /** A change that met others on the same data and could not proceed: send it again. */
  conflict: 409,
  /** A request body that came too slowly. */
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** A request for a host name this server does not answer to (DNS rebinding). */
  misdirected: 421,
  rate_limited: 429,
  unavailable: 503,
  /** An unexpected failure: a generic message, never the internals. */
  internal: 500,
} as const;

export type AppErrorCode = keyof typeof APP_ERROR_STATUS;

// Route code is bundled by Next while the server boots from source, so one error may meet two
// copies of this class: recognise it by a registry-wide symbol, not by instanceof.
const BRAND = Symbol.for('loopscope.AppError');

export class AppError extends Error {
  readonly [BRAND] = true;
  readonly code: AppErrorCode;
  /** Seconds a client should wait before retrying (429 / 503). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: AppErrorCode,
    message: string,
    options?: { retryAfterSeconds?: number; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  get status(): number {
    return APP_ERROR_STATUS[this.code];
  }
}

export function isAppError(value: unknown): value is AppError {
  return (
    typeof value === 'object' && value !== null && (value as { [BRAND]?: boolean })[BRAND] === true
  );
}

import { AppError, isAppError } from '../lib/app-error';

// Errors that mean "the database cannot answer now" (down, restarting, out of connections):
// callers answer 503 with Retry-After and the client retries; never a 500 or a 400.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Any error as the AppError to answer with: itself, a 503 with Retry-After when the database
 * cannot answer, or a generic 500 (reported to `onUnexpected`, never echoed to the client).
 */
export function toAppError(
  error: unknown,
  onUnexpected: (error: unknown) => void,
  what: string,
): AppError {
  if (isAppError(error)) return error;
  if (isDatabaseUnavailable(error)) {
    return new AppError('unavailable', 'the database is unavailable; retry later', {
      retryAfterSeconds: 2,
    });
  }
  onUnexpected(error);
  return new AppError('internal', `${what} failed on the server`);
}

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
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  // read_only_sql_transaction: a standby reached in a failover, or a primary being demoted; the
  // next connection finds the new primary (target_session_attrs=read-write).
  '25006',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  return hasCode(error, UNAVAILABLE_CODES);
}

// Errors of two transactions meeting (a deadlock, a serialization failure, a lock not free):
// no fault of the data, gone when the work is done again.
const CONFLICT_CODES = new Set(['40P01', '40001', '55P03']);

export function isTransientConflict(error: unknown): boolean {
  return hasCode(error, CONFLICT_CODES);
}

/** `work` again (a new transaction) when it met another transaction, up to `attempts` times. */
export async function withConflictRetry<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransientConflict(error)) throw error;
    }
  }
}

function hasCode(error: unknown, codes: ReadonlySet<string>): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && codes.has(code)) return true;
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

/**
 * An error in a few words for logs and for the quarantine: the database's own message and code
 * when a query failed (drizzle's message carries the whole query and its parameters, which can
 * hold megabytes of span content), else the error's name and message; never more than 500
 * characters.
 */
export function describeError(error: unknown, options: { stack?: boolean } = {}): string {
  let e: unknown = error;
  // drizzle wraps the driver's error: `Failed query: <sql> params: <values>`, cause = the driver's.
  for (let depth = 0; depth < 5; depth++) {
    const message = (e as { message?: unknown })?.message;
    const cause = (e as { cause?: unknown })?.cause;
    if (typeof message === 'string' && message.startsWith('Failed query') && cause) e = cause;
    else break;
  }
  const name = e instanceof Error ? e.name : typeof e;
  const raw = e instanceof Error ? e.message : String(e);
  const message = raw.startsWith('Failed query') ? 'a query failed' : raw;
  const code = (e as { code?: unknown })?.code;
  const line = `${name}${typeof code === 'string' ? ` ${code}` : ''}: ${message}`;
  const text = line.length > 500 ? `${line.slice(0, 500)}…` : line;
  if (!options.stack || !(e instanceof Error) || !e.stack) return text;
  // Only the frames: the stack's first lines repeat the message.
  const frames = e.stack
    .split('\n')
    .filter((l) => l.trimStart().startsWith('at '))
    .slice(0, 8);
  return [text, ...frames].join('\n');
}

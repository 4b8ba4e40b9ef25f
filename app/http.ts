// AppError codes to HTTP in one place. Unknown errors become a generic 500 that never echoes
// internals; a database that cannot answer is a 503 with Retry-After.
import { unstable_rethrow } from 'next/navigation';
import { describeError, toAppError } from '@/db/errors';

export function errorResponse(error: unknown): Response {
  // redirect() and notFound() are Next's control flow, not failures: let them through.
  unstable_rethrow(error);
  const appError = toAppError(
    error,
    (unexpected) =>
      console.error(`[loopscope] request failed: ${describeError(unexpected, { stack: true })}`),
    'this request',
  );
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (appError.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(appError.retryAfterSeconds);
  return Response.json(
    { error: { code: appError.code, message: appError.message } },
    { status: appError.status, headers },
  );
}

export async function respond(work: () => Promise<unknown>): Promise<Response> {
  try {
    const body = await work();
    return body instanceof Response
      ? body
      : Response.json(body, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return errorResponse(error);
  }
}

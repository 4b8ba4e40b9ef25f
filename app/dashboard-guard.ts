// The dashboard's door for pages, server actions and UI routes: the one check of lib/door/dashboard-
// door.ts, read from the request at hand. The proxy applies it to every dashboard request first;
// each of these applies it again where the dashboard reads or acts, so the proxy is not the lock.
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cookieValue, currentDoor, doorProblem, openDoorCookie } from '@/lib/door/dashboard-door';
import type { AppError } from '@/lib/app-error';
import { SESSION_COOKIE } from '@/lib/door/dashboard-session';

export { currentDoor };

async function problemNow(): Promise<AppError | null> {
  const [requestHeaders, jar] = await Promise.all([headers(), cookies()]);
  return doorProblem({
    host: requestHeaders.get('host'),
    token: jar.get(SESSION_COOKIE)?.value,
    method: 'GET',
    origin: null,
  });
}

export async function hasDashboardSession(): Promise<boolean> {
  return (await problemNow()) === null;
}

/** For pages: without a session, to the login page; a foreign Host gets nothing. */
export async function requireDashboardPage(): Promise<void> {
  const problem = await problemNow();
  if (problem?.code === 'unauthorized') redirect('/login');
  if (problem) throw problem;
}

/**
 * For server actions, first thing: an action is a POST any page can make, so it checks the
 * session and the Host itself (Next checks its Origin).
 */
export async function requireDashboardAction(): Promise<void> {
  const problem = await problemNow();
  if (problem) throw problem;
}

/** For UI routes (read from the request itself), including the same-origin check for writes. */
export function requireDashboardRequest(request: Request): void {
  const problem = doorProblem({
    host: request.headers.get('host'),
    token: cookieValue(request.headers.get('cookie'), SESSION_COOKIE),
    method: request.method,
    origin: request.headers.get('origin'),
    // What changes anything: a read is no more than the open dashboard's pages show.
    internal: request.method !== 'GET' && request.method !== 'HEAD',
    openToken: cookieValue(request.headers.get('cookie'), openDoorCookie()),
  });
  if (problem) throw problem;
}

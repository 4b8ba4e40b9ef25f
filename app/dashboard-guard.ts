// The dashboard's door, checked where the dashboard reads: every page and UI route passes through
// here (chooseProject and the UI routes), so the proxy's redirect is convenience, not the lock.
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { AppError } from '@/lib/app-error';
import { dashboardDoor, SESSION_COOKIE, verifySessionToken } from '@/lib/dashboard-session';
import type { DashboardDoor } from '@/lib/dashboard-session';

/** The door as this server's settings describe it; misconfigured means shut to everyone. */
export function currentDoor(
  env: Record<string, string | undefined> = process.env,
): DashboardDoor & { misconfigured: boolean } {
  try {
    return {
      ...dashboardDoor(env.HOST || '127.0.0.1', env.LOOPSCOPE_DASHBOARD_PASSWORD || undefined),
      misconfigured: false,
    };
  } catch {
    return { password: null, misconfigured: true };
  }
}

export async function hasDashboardSession(): Promise<boolean> {
  const door = currentDoor();
  if (door.misconfigured) return false;
  if (door.password === null) return true;
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return verifySessionToken(token, door.password);
}

/** For pages: without a session, to the login page. */
export async function requireDashboardPage(): Promise<void> {
  if (!(await hasDashboardSession())) redirect('/login');
}

/**
 * For UI routes (read from the request itself): a session, and for anything that changes state
 * a same-origin request (a form posted from another site carries its own Origin).
 */
export function requireDashboardRequest(request: Request): void {
  const door = currentDoor();
  const token = cookieValue(request.headers.get('cookie'), SESSION_COOKIE);
  if (door.misconfigured || (door.password !== null && !verifySessionToken(token, door.password))) {
    throw new AppError('unauthorized', 'log in to the dashboard first');
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const origin = request.headers.get('origin');
    const host = request.headers.get('host');
    if (origin !== null && (host === null || hostOf(origin) !== host)) {
      throw new AppError('forbidden', 'cross-site request refused');
    }
  }
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

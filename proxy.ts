// Every dashboard request: the door (lib/door/dashboard-door.ts: a Host this server answers to, a
// session where a login is asked for, same-origin writes), then a Content-Security-Policy with a
// fresh nonce (no inline script runs without it). Prefetches and server actions pass here like
// any request. The ingest and API routes (bearer keys, any Host) are not matched, so their
// bodies are never buffered here.
import { NextResponse } from 'next/server';
import type { NextRequest } from 'next/server';
import { currentDoor, doorProblem, openDoorCookie } from './lib/door/dashboard-door';
import {
  createSessionToken,
  openDoorKey,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  verifySessionToken,
} from './lib/door/dashboard-session';

export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // Charts and layout set style attributes; script is what the policy must lock down.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function proxy(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = contentSecurityPolicy(nonce, process.env.NODE_ENV === 'development');
  const response = passOrRefuse(request, nonce, policy);
  response.headers.set('content-security-policy', policy);
  response.headers.set('x-content-type-options', 'nosniff');
  response.headers.set('referrer-policy', 'same-origin');
  return response;
}

function passOrRefuse(request: NextRequest, nonce: string, policy: string): NextResponse {
  const path = request.nextUrl.pathname;
  const token = request.cookies.get(SESSION_COOKIE)?.value;
  const page = request.method === 'GET' && !path.startsWith('/api/');
  const problem = doorProblem({
    host: request.headers.get('host'),
    token,
    method: request.method,
    origin: request.headers.get('origin'),
    internal: request.method !== 'GET' && request.method !== 'HEAD',
    openToken: request.cookies.get(openDoorCookie())?.value,
  });
  // The login page needs no session, only the right Host and origin.
  if (problem && !(problem.code === 'unauthorized' && path === '/login')) {
    if (problem.code === 'unauthorized' && request.method === 'GET' && !path.startsWith('/api/')) {
      const login = new URL('/login', request.url);
      login.searchParams.set('next', `${path}${request.nextUrl.search}`);
      return NextResponse.redirect(login);
    }
    return NextResponse.json(
      { error: { code: problem.code, message: problem.message } },
      { status: problem.status, headers: { 'cache-control': 'no-store' } },
    );
  }
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers } });
  // Open without a password: a page hands its browser the session the internal routes ask for.
  const open = openDoorCookie();
  if (
    page &&
    currentDoor().password === null &&
    !verifySessionToken(request.cookies.get(open)?.value, openDoorKey())
  ) {
    response.cookies.set(open, createSessionToken(openDoorKey()), {
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      maxAge: SESSION_TTL_MS / 1000,
    });
  }
  return response;
}

export const config = {
  // No `missing` prefetch conditions: a prefetch header must not skip the door or the policy.
  matcher: [
    '/((?!v1/|api/v1/|api/health|api/admin/|_next/static|_next/image|favicon.ico|icon.svg).*)',
  ],
};

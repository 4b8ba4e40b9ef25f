// Every dashboard request: a Content-Security-Policy with a fresh nonce (no inline script runs
// without it), and, when the dashboard is served beyond loopback, a login. The ingest and API
// routes (bearer keys) are not matched, so their bodies are never buffered here.
import { NextResponse } from 'next/server';
import type { NextRequest } from 'next/server';
import { currentDoor } from './app/dashboard-guard';
import { SESSION_COOKIE, verifySessionToken } from './lib/dashboard-session';

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
  const door = currentDoor();
  const path = request.nextUrl.pathname;
  if (path !== '/login' && (door.misconfigured || door.password !== null)) {
    const token = request.cookies.get(SESSION_COOKIE)?.value;
    const allowed = door.password !== null && verifySessionToken(token, door.password);
    if (!allowed) {
      if (request.method === 'GET' && !path.startsWith('/api/')) {
        const login = new URL('/login', request.url);
        login.searchParams.set('next', `${path}${request.nextUrl.search}`);
        return NextResponse.redirect(login);
      }
      return NextResponse.json(
        { error: { code: 'unauthorized', message: 'log in to the dashboard first' } },
        { status: 401 },
      );
    }
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = contentSecurityPolicy(nonce, process.env.NODE_ENV === 'development');
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  response.headers.set('x-content-type-options', 'nosniff');
  response.headers.set('referrer-policy', 'same-origin');
  return response;
}

export const config = {
  matcher: [
    {
      source:
        '/((?!v1/|api/v1/|api/health|api/admin/|_next/static|_next/image|favicon.ico|icon.svg).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};

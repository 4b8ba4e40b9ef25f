// The dashboard's door. On loopback it is open; bound to any other address it needs the
// operator's password, and a session is a signed, expiring token in an http-only cookie.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'loopscope_session';
export const SESSION_TTL_MS = 12 * 3600 * 1000;

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

export interface DashboardDoor {
  /** Null when the dashboard is open (served on loopback only). */
  password: string | null;
}

/** The door the server's settings describe; bound beyond loopback without a password: refuse. */
export function dashboardDoor(host: string, password: string | undefined): DashboardDoor {
  if (isLoopback(host)) return { password: password ?? null };
  if (!password) {
    throw new Error(
      `HOST=${host} serves the dashboard beyond this machine: set LOOPSCOPE_DASHBOARD_PASSWORD (at least 12 characters) so it asks for a login, or bind to 127.0.0.1.`,
    );
  }
  return { password };
}

// The signing key follows the password: changing the password ends every session.
function signingKey(password: string): Buffer {
  return createHash('sha256').update(`loopscope-session\n${password}`).digest();
}

function sign(payload: string, password: string): string {
  return createHmac('sha256', signingKey(password)).update(payload).digest('base64url');
}

export function createSessionToken(password: string, now = Date.now()): string {
  const payload = String(now + SESSION_TTL_MS);
  return `${payload}.${sign(payload, password)}`;
}

export function verifySessionToken(
  token: string | undefined,
  password: string,
  now = Date.now(),
): boolean {
  if (!token) return false;
  const [payload, signature] = token.split('.');
  if (!payload || !signature || !/^\d+$/.test(payload)) return false;
  const expected = Buffer.from(sign(payload, password));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  return Number(payload) > now;
}

export function passwordMatches(given: string, password: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(password).digest();
  return timingSafeEqual(a, b);
}

/** Where to go after logging in: a path of this site only, never another origin. */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return '/';
  return next;
}

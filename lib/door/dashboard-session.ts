// The dashboard's door. On loopback it is open; bound to any other address it needs the
// operator's password, and a session is a signed, expiring token in an http-only cookie that
// logging out revokes on the server.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

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

// Without a password the dashboard is open on loopback, yet its internal routes still ask for a
// session: a page load hands one out, so only the dashboard's own pages hold one, and a program
// on this machine that posts to an internal route (a webhook aimed inward) holds none. Signed
// with a key of this process: a restart hands out new ones at the next page load.
const OPEN_DOOR_KEY = Symbol.for('loopscope.open-door-key');
type KeyHolder = { [OPEN_DOOR_KEY]?: string };

/** What signs the sessions of a dashboard without a password. */
export function openDoorKey(): string {
  return ((globalThis as KeyHolder)[OPEN_DOOR_KEY] ??= randomBytes(32).toString('base64url'));
}

/** `expiry.id.signature`: the id is what logging out revokes. */
export function createSessionToken(password: string, now = Date.now()): string {
  const payload = `${now + SESSION_TTL_MS}.${randomBytes(16).toString('base64url')}`;
  return `${payload}.${sign(payload, password)}`;
}

interface SessionClaims {
  id: string;
  expiresAt: number;
}

/** The token's claims when it is one this password signed; expiry and revocation not checked. */
function sessionClaims(token: string | undefined, password: string): SessionClaims | null {
  if (!token) return null;
  const [expiry, id, signature, ...rest] = token.split('.');
  if (!expiry || !id || !signature || rest.length > 0 || !/^\d+$/.test(expiry)) return null;
  const expected = Buffer.from(sign(`${expiry}.${id}`, password));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { id, expiresAt: Number(expiry) };
}

export function verifySessionToken(
  token: string | undefined,
  password: string,
  now = Date.now(),
  revoked: SessionRevocations = sessionRevocations(),
): boolean {
  const claims = sessionClaims(token, password);
  return claims !== null && claims.expiresAt > now && !revoked.has(claims.id);
}

/** Logging out: the token stops opening the door at once, though the browser may keep it. */
export function revokeSessionToken(
  token: string | undefined,
  password: string,
  revoked: SessionRevocations = sessionRevocations(),
): void {
  const claims = sessionClaims(token, password);
  if (claims) revoked.add(claims.id, claims.expiresAt);
}

/**
 * Revoked session ids until their tokens would have expired anyway. Held by the process; given
 * the ones revoked before and a way to keep new ones (the server keeps them in its data folder),
 * they also outlive a restart.
 */
export class SessionRevocations {
  private readonly ids = new Map<string, number>();

  constructor(
    revoked: Iterable<[id: string, expiresAt: number]> = [],
    private readonly keep: (id: string, expiresAt: number) => void = () => {},
  ) {
    const now = Date.now();
    for (const [id, expiresAt] of revoked) if (expiresAt > now) this.ids.set(id, expiresAt);
  }

  /** The live revocations, for a store to rewrite itself without the expired ones. */
  entries(): [string, number][] {
    return [...this.ids];
  }

  has(id: string): boolean {
    const expiresAt = this.ids.get(id);
    if (expiresAt === undefined) return false;
    if (expiresAt > Date.now()) return true;
    this.ids.delete(id); // its token has expired anyway
    return false;
  }

  add(id: string, expiresAt: number): void {
    this.ids.set(id, expiresAt);
    this.keep(id, expiresAt);
  }
}

// One list per process, shared by the proxy, pages and actions (bundled apart by Next).
const REVOCATIONS = Symbol.for('loopscope.session-revocations');
type Holder = { [REVOCATIONS]?: SessionRevocations };

export function sessionRevocations(): SessionRevocations {
  return ((globalThis as Holder)[REVOCATIONS] ??= new SessionRevocations());
}

/** At start: the revocations this process checks (the server's, kept in its data folder). */
export function checkSessionRevocationsOf(revocations: SessionRevocations): void {
  (globalThis as Holder)[REVOCATIONS] = revocations;
}

export function passwordMatches(given: string, password: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(password).digest();
  return timingSafeEqual(a, b);
}

const THIS_SITE = new URL('http://loopscope.invalid');

/**
 * Where to go after logging in: a path of this site only, never another origin. Browsers drop
 * tabs and newlines from a URL and read `\` as `/`, so `/\t/host` and `/%09/host` would leave
 * the site: the path is checked as given, after each decoding, and as a URL parser reads it.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next) return '/';
  let text = next;
  for (let round = 0; round < 4; round++) {
    if (!startsAsPlainPath(text)) return '/';
    const decoded = decodeOnce(text);
    if (decoded === null) return '/';
    if (decoded === text) break;
    text = decoded;
  }
  let url: URL;
  try {
    url = new URL(next, THIS_SITE);
  } catch {
    return '/';
  }
  if (url.origin !== THIS_SITE.origin || !startsAsPlainPath(url.pathname)) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** One `/`, then neither another slash, a backslash nor anything a browser would drop. */
function startsAsPlainPath(path: string): boolean {
  const stripped = path.replace(/[\t\n\r]/g, '');
  return /^\/(?![/\\])/.test(stripped) && !/^\/[\s\u0000-\u001f\u007f]/.test(path);
}

function decodeOnce(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

// The one check at the dashboard's door, for the proxy, pages, server actions and UI routes
// alike: the Host must be one this server answers to (a DNS-rebinding page names its own), the
// session must be valid where a login is asked for, and a request that changes state must come
// from the dashboard's own origin.
import { hostname, networkInterfaces } from 'node:os';
import { AppError } from '../app-error';
import { dashboardDoor, isLoopback, openDoorKey, verifySessionToken } from './dashboard-session';
import type { DashboardDoor } from './dashboard-session';

export interface DoorSettings {
  /** The address the server listens on (HOST) and its port. */
  host: string;
  port: number;
  password: string | undefined;
  /** LOOPSCOPE_PUBLIC_URL: where people reach the dashboard through a proxy. */
  publicUrl: string | null;
}

// Set by the server once it listens (the real port, when PORT=0 picked one); Next bundles the
// proxy and the routes apart, so the settings live on globalThis.
const SETTINGS = Symbol.for('loopscope.door-settings');
type Holder = { [SETTINGS]?: DoorSettings };

export function configureDoor(settings: DoorSettings): void {
  (globalThis as Holder)[SETTINGS] = settings;
}

export function doorSettings(env: Record<string, string | undefined> = process.env): DoorSettings {
  return (
    (globalThis as Holder)[SETTINGS] ?? {
      host: env.HOST || '127.0.0.1',
      port: Number(env.PORT || 3000),
      password: env.LOOPSCOPE_DASHBOARD_PASSWORD || undefined,
      publicUrl: env.LOOPSCOPE_PUBLIC_URL || null,
    }
  );
}

/** The door as this server's settings describe it; misconfigured means shut to everyone. */
export function currentDoor(
  settings: DoorSettings = doorSettings(),
): DashboardDoor & { misconfigured: boolean } {
  try {
    return { ...dashboardDoor(settings.host, settings.password), misconfigured: false };
  } catch {
    return { password: null, misconfigured: true };
  }
}

/** Every `host[:port]` a browser may name to reach this server, lower case. */
export function allowedHosts(settings: DoorSettings): Set<string> {
  let hosts = ALLOWED.get(settings);
  if (!hosts) ALLOWED.set(settings, (hosts = listHosts(settings)));
  return hosts;
}

const ALLOWED = new WeakMap<DoorSettings, Set<string>>();

function listHosts(settings: DoorSettings): Set<string> {
  const names = new Set<string>();
  const listen = settings.host.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLoopback(listen) || listen === 'localhost') {
    names.add(listen).add('127.0.0.1').add('localhost').add('::1');
  } else if (listen === '0.0.0.0' || listen === '::') {
    names.add('127.0.0.1').add('localhost').add('::1').add(hostname().toLowerCase());
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(address.address.toLowerCase());
    }
  } else {
    names.add(listen);
  }
  const hosts = new Set<string>();
  for (const name of names) {
    const shown = name.includes(':') ? `[${name}]` : name;
    hosts.add(`${shown}:${settings.port}`);
    if (settings.port === 80) hosts.add(shown);
  }
  if (settings.publicUrl) hosts.add(new URL(settings.publicUrl).host.toLowerCase());
  return hosts;
}

export function hostAllowed(host: string | null, settings: DoorSettings = doorSettings()): boolean {
  return host !== null && allowedHosts(settings).has(host.trim().toLowerCase());
}

export interface DoorRequest {
  host: string | null;
  /** The session cookie's value, if any. */
  token: string | undefined;
  method: string;
  origin: string | null;
  /**
   * A write only the dashboard's own pages make (a UI route's POST, a server action): it needs a
   * session even where the dashboard is open without a password.
   */
  internal?: boolean;
  /** The open dashboard's session cookie (`openDoorCookie`), where there is no password. */
  openToken?: string;
}

/**
 * The cookie of an open dashboard's session, named for the port: browsers keep cookies by host,
 * not port, and two servers on one machine would take each other's.
 */
export function openDoorCookie(settings: DoorSettings = doorSettings()): string {
  return `loopscope_open_${settings.port}`;
}

/** Why the request may not pass (421, 403 or 401), or null. */
export function doorProblem(
  request: DoorRequest,
  settings: DoorSettings = doorSettings(),
): AppError | null {
  if (!hostAllowed(request.host, settings)) {
    return new AppError(
      'misdirected',
      `this server does not answer to the host ${JSON.stringify((request.host ?? '').slice(0, 100))}: open it at ${[...allowedHosts(settings)][0] ?? 'its own address'}, or set LOOPSCOPE_PUBLIC_URL to the address people use`,
    );
  }
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.origin !== null) {
    if (hostOf(request.origin) !== request.host?.trim().toLowerCase()) {
      return new AppError('forbidden', 'cross-site request refused');
    }
  }
  const door = currentDoor(settings);
  if (
    door.misconfigured ||
    (door.password !== null && !verifySessionToken(request.token, door.password))
  ) {
    return new AppError('unauthorized', 'log in to the dashboard first');
  }
  if (
    door.password === null &&
    request.internal &&
    !verifySessionToken(request.openToken, openDoorKey())
  ) {
    return new AppError('unauthorized', 'open the dashboard first: this route serves its pages');
  }
  return null;
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return null;
  }
}

import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { doorSettings, hostAllowed } from '@/lib/door/dashboard-door';
import { isDashboardPath } from '@/lib/filters';
import { createSessionToken, openDoorKey, SESSION_COOKIE } from '@/lib/door/dashboard-session';
import { currentDoor, requireDashboardRequest } from './dashboard-guard';

const saved = { HOST: process.env.HOST, PASSWORD: process.env.LOOPSCOPE_DASHBOARD_PASSWORD };
const restore = (name: string, value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};
afterEach(() => {
  restore('HOST', saved.HOST);
  restore('LOOPSCOPE_DASHBOARD_PASSWORD', saved.PASSWORD);
});

// The session a page of the open dashboard (port 3000) hands out.
const opened = () => `loopscope_open_3000=${createSessionToken(openDoorKey())}`;

const post = (headers: Record<string, string>) =>
  new Request('http://127.0.0.1:3000/api/ui/demo', {
    method: 'POST',
    headers: { host: '127.0.0.1:3000', cookie: opened(), ...headers },
  });

describe('requireDashboardRequest', () => {
  it('on loopback lets same-origin posts through and refuses another site’s', () => {
    process.env.HOST = '127.0.0.1';
    expect(() => requireDashboardRequest(post({ origin: 'http://127.0.0.1:3000' }))).not.toThrow();
    expect(() => requireDashboardRequest(post({}))).not.toThrow();
    expect(() => requireDashboardRequest(post({ origin: 'http://evil.example' }))).toThrow(
      /cross-site/,
    );
    expect(() => requireDashboardRequest(post({ origin: 'null' }))).toThrow(/cross-site/);
  });

  it('on loopback without a password, still asks for the session a page hands out', () => {
    process.env.HOST = '127.0.0.1';
    for (const cookie of ['', `loopscope_open_3000=${createSessionToken('a guess')}`, 'x=y']) {
      expect(() => requireDashboardRequest(post({ cookie }))).toThrow(/open the dashboard first/);
    }
    // Another port's session is another server's.
    const other = `loopscope_open_4000=${createSessionToken(openDoorKey())}`;
    expect(() => requireDashboardRequest(post({ cookie: other }))).toThrow(/open the dashboard/);
  });

  it('beyond loopback asks for a valid session cookie', () => {
    process.env.HOST = '0.0.0.0';
    process.env.LOOPSCOPE_DASHBOARD_PASSWORD = 'the operator password';
    expect(() => requireDashboardRequest(post({}))).toThrow(/log in/);
    const token = createSessionToken('the operator password');
    expect(() =>
      requireDashboardRequest(post({ cookie: `a=b; ${SESSION_COOKIE}=${token}` })),
    ).not.toThrow();
    expect(() =>
      requireDashboardRequest(
        post({ cookie: `${SESSION_COOKIE}=${createSessionToken('another password')}` }),
      ),
    ).toThrow(/log in/);
  });

  it('beyond loopback without a password, the door stays shut', () => {
    process.env.HOST = '0.0.0.0';
    delete process.env.LOOPSCOPE_DASHBOARD_PASSWORD;
    expect(currentDoor()).toEqual({ password: null, misconfigured: true });
    expect(() => requireDashboardRequest(post({}))).toThrow(/log in/);
  });
});

describe('the Host a request names', () => {
  const get = (host: string) =>
    new Request('http://127.0.0.1:3000/api/ui/demo', { headers: { host } });
  const code = (fn: () => void) => {
    try {
      fn();
      return null;
    } catch (error) {
      return (error as { code?: string; status?: number }).status;
    }
  };

  it('on loopback: the loopback names at the port it listens on, nothing else (DNS rebinding)', () => {
    process.env.HOST = '127.0.0.1';
    for (const host of ['127.0.0.1:3000', 'localhost:3000', 'LOCALHOST:3000', '[::1]:3000']) {
      expect(code(() => requireDashboardRequest(get(host)))).toBeNull();
    }
    for (const host of ['attacker.example:3000', 'attacker.example', '127.0.0.1:4000', '']) {
      expect(code(() => requireDashboardRequest(get(host)))).toBe(421);
    }
    expect(() => requireDashboardRequest(get('attacker.example:3000'))).toThrow(
      /does not answer to the host "attacker.example:3000".*LOOPSCOPE_PUBLIC_URL/,
    );
  });

  it('also the host of LOOPSCOPE_PUBLIC_URL', () => {
    process.env.HOST = '127.0.0.1';
    const configured = doorSettings();
    const settings = { ...configured, publicUrl: 'https://loops.example.com' };
    expect(hostAllowed('loops.example.com', settings)).toBe(true);
    expect(hostAllowed('loops.example.com:3000', settings)).toBe(false);
    expect(hostAllowed('evil.example', settings)).toBe(false);
  });

  it('bound to every address: this machine’s own addresses and name', () => {
    const settings = { host: '0.0.0.0', port: 3000, password: 'x'.repeat(12), publicUrl: null };
    expect(hostAllowed('127.0.0.1:3000', settings)).toBe(true);
    expect(hostAllowed(`${hostname()}:3000`, settings)).toBe(true);
    expect(hostAllowed('attacker.example:3000', settings)).toBe(false);
  });
});

describe('the paths the proxy covers', () => {
  it('are the dashboard paths the server’s edge knows, path for path', async () => {
    const { config } = await import('@/proxy');
    const matcher = new RegExp(`^${config.matcher[0]}$`);
    for (const path of [
      '/',
      '/runs/x',
      '/runs/x/spans',
      '/api/ui/demo',
      '/login',
      '/reports/weekly',
      '/v1/traces',
      '/v1/x',
      '/api/v1/runs',
      '/api/health',
      '/api/admin/keys',
      '/_next/static/a.js',
      '/_next/image',
      '/favicon.ico',
      '/icon.svg',
    ]) {
      expect(isDashboardPath(path), path).toBe(matcher.test(path));
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createSessionToken, SESSION_COOKIE } from '@/lib/dashboard-session';
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

const post = (headers: Record<string, string>) =>
  new Request('http://127.0.0.1:3000/api/ui/demo', {
    method: 'POST',
    headers: { host: '127.0.0.1:3000', ...headers },
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

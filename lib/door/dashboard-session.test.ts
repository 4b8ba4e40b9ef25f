import { describe, expect, it } from 'vitest';
import {
  createSessionToken,
  dashboardDoor,
  isLoopback,
  passwordMatches,
  revokeSessionToken,
  safeNextPath,
  SESSION_TTL_MS,
  SessionRevocations,
  verifySessionToken,
} from './dashboard-session';

describe('the dashboard door', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.5', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });

  it('is open on loopback and refuses to serve beyond it without a password', () => {
    expect(dashboardDoor('127.0.0.1', undefined)).toEqual({ password: null });
    expect(() => dashboardDoor('0.0.0.0', undefined)).toThrow(/LOOPSCOPE_DASHBOARD_PASSWORD/);
    expect(dashboardDoor('0.0.0.0', 'correct horse battery')).toEqual({
      password: 'correct horse battery',
    });
  });

  it('accepts its own session until it expires, and nothing forged or signed with another password', () => {
    const now = 1_800_000_000_000;
    const token = createSessionToken('pw-one-123456', now);
    expect(verifySessionToken(token, 'pw-one-123456', now + 1000)).toBe(true);
    expect(verifySessionToken(token, 'pw-one-123456', now + SESSION_TTL_MS + 1)).toBe(false);
    expect(verifySessionToken(token, 'pw-two-123456', now + 1000)).toBe(false);
    const [payload, signature] = token.split('.');
    expect(verifySessionToken(`${Number(payload) + 1}.${signature}`, 'pw-one-123456', now)).toBe(
      false,
    );
    expect(verifySessionToken('garbage', 'pw-one-123456', now)).toBe(false);
    expect(verifySessionToken(undefined, 'pw-one-123456', now)).toBe(false);
  });

  it('compares passwords exactly', () => {
    expect(passwordMatches('secret-123456', 'secret-123456')).toBe(true);
    expect(passwordMatches('secret-12345', 'secret-123456')).toBe(false);
  });

  it.each([
    ['/runs/abc?step=3', '/runs/abc?step=3'],
    ['/runs/a%2Fb?project=x#s', '/runs/a%2Fb?project=x#s'],
    ['//evil.example/x', '/'],
    ['https://evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['\\\\evil.example', '/'],
    ['/%09/evil.example/x', '/'],
    ['/\t/evil.example/x', '/'],
    ['/\n/evil.example', '/'],
    ['/\r\n/evil.example', '/'],
    ['\t//evil.example', '/'],
    ['/%2F%2Fevil.example', '/'],
    ['/%252F%252Fevil.example', '/'],
    ['/%5Cevil.example', '/'],
    ['/.//evil.example', '/'],
    ['/%ZZ', '/'],
    [null, '/'],
  ])('after login goes to %j → %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it('a revoked session stops opening the door at once; other sessions still do', () => {
    const revoked = new SessionRevocations();
    const token = createSessionToken('pw-one-123456');
    const other = createSessionToken('pw-one-123456');
    expect(verifySessionToken(token, 'pw-one-123456', Date.now(), revoked)).toBe(true);
    revokeSessionToken(token, 'pw-one-123456', revoked);
    expect(verifySessionToken(token, 'pw-one-123456', Date.now(), revoked)).toBe(false);
    expect(verifySessionToken(other, 'pw-one-123456', Date.now(), revoked)).toBe(true);
  });
});

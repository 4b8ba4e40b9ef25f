import { describe, expect, it } from 'vitest';
import { FREE_FAILURES, LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  it('lets a few guesses through, then doubles the wait after each wrong one, per address', () => {
    let now = 0;
    const throttle = new LoginThrottle(() => now);
    for (let k = 0; k < FREE_FAILURES; k++) {
      expect(throttle.waitSeconds('10.0.0.1')).toBe(0);
      throttle.failed('10.0.0.1');
    }
    expect(throttle.waitSeconds('10.0.0.1')).toBe(0);
    throttle.failed('10.0.0.1');
    expect(throttle.waitSeconds('10.0.0.1')).toBe(1);
    now += 1000;
    throttle.failed('10.0.0.1');
    expect(throttle.waitSeconds('10.0.0.1')).toBe(2);
    now += 2000;
    throttle.failed('10.0.0.1');
    expect(throttle.waitSeconds('10.0.0.1')).toBe(4);
    expect(throttle.waitSeconds('10.0.0.2')).toBe(0); // another address is not slowed
    for (let k = 0; k < 20; k++) throttle.failed('10.0.0.1');
    expect(throttle.waitSeconds('10.0.0.1')).toBe(300); // capped at five minutes
  });

  it('forgets an address on success, and an hour after its last failure', () => {
    let now = 0;
    const throttle = new LoginThrottle(() => now);
    for (let k = 0; k < FREE_FAILURES + 3; k++) throttle.failed('a');
    expect(throttle.waitSeconds('a')).toBeGreaterThan(0);
    throttle.succeeded('a');
    expect(throttle.waitSeconds('a')).toBe(0);
    for (let k = 0; k < FREE_FAILURES + 3; k++) throttle.failed('b');
    now += 61 * 60_000;
    expect(throttle.waitSeconds('b')).toBe(0);
  });
});

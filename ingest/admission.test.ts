import { describe, expect, it } from 'vitest';
import { isAppError } from '../lib/app-error';
import { Admission } from './admission';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return isAppError(error) ? [error.code, error.retryAfterSeconds] : ['other', undefined];
  }
  return null;
};

describe('Admission', () => {
  it('runs `concurrency` at once, queues `queue` more, and refuses the rest at once with Retry-After', async () => {
    const admission = new Admission(1, 1);
    let release!: () => void;
    const first = admission.run(() => new Promise<void>((resolve) => (release = resolve)));
    const second = admission.run(async () => 'second');
    expect(admission.inFlight).toBe(2);
    expect(refusal(() => admission.refuseIfFull())).toEqual(['rate_limited', 1]);
    await expect(admission.run(async () => 'third')).rejects.toMatchObject({
      code: 'rate_limited',
    });
    release();
    await first;
    expect(await second).toBe('second');
    expect(refusal(() => admission.refuseIfFull())).toBeNull();
  });

  it('refuses while the work already accepted is not keeping up', () => {
    expect(refusal(() => new Admission(4, 4).refuseIfFull(true))).toEqual(['rate_limited', 1]);
  });
});

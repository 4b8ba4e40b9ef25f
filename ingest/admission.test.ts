import { describe, expect, it } from 'vitest';
import { isAppError } from '../lib/app-error';
import { Admission, admissionLimits } from './admission';
import type { AdmissionTicket } from './admission';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return isAppError(error) ? [error.code, error.retryAfterSeconds] : ['other', undefined];
  }
  return null;
};

const scope = (projectId: string, keyId = `${projectId}-key`) => ({ projectId, keyId });

/** A ticket admitted for `projectId` and at work (or waiting for work). */
function working(admission: Admission, projectId: string, keyId?: string) {
  const ticket = admission.enter();
  ticket.admit(scope(projectId, keyId));
  const work = ticket.work();
  work.catch(() => {}); // tests that let a wait time out say so
  return { ticket, work };
}

/** One slot, a request measured at 2 s at work, and the next one at work now. */
async function busyAfterTwoSeconds(): Promise<Admission> {
  let now = 0;
  const admission = new Admission(
    admissionLimits(1, 100, { maxWaitMs: 5000, perProject: 100 }),
    () => now,
  );
  const measured = working(admission, 'p');
  await measured.work;
  now += 2000;
  measured.ticket.leave();
  await working(admission, 'p').work;
  return admission;
}

describe('Admission', () => {
  it('takes `concurrency` at work and `queue` more, and refuses the rest at once with Retry-After', async () => {
    const admission = new Admission(admissionLimits(1, 1, { perProject: 10 }));
    const first = working(admission, 'p');
    await first.work;
    const second = working(admission, 'p');
    expect(admission.state().inFlight).toBe(2);
    expect(refusal(() => admission.enter())).toEqual(['rate_limited', 1]);
    first.ticket.leave();
    await second.work; // the queued request gets the slot
    second.ticket.leave();
    expect(admission.state().inFlight).toBe(0);
    expect(refusal(() => admission.enter().leave())).toBeNull();
  });

  it('refuses while the work already accepted is not keeping up', () => {
    const admission = new Admission(admissionLimits(4, 4));
    expect(refusal(() => admission.enter('derivation is behind'))).toEqual(['rate_limited', 1]);
  });

  it('gives one project at most its share, so another project still gets in', async () => {
    const admission = new Admission(admissionLimits(2, 4)); // 5 per project: all places but one
    const tickets: AdmissionTicket[] = [];
    for (let k = 0; k < 5; k++) tickets.push(working(admission, 'greedy').ticket);
    const fourth = admission.enter();
    expect(refusal(() => fourth.admit(scope('greedy')))).toEqual(['rate_limited', 1]);
    fourth.leave();
    const other = working(admission, 'other');
    expect(admission.state().inFlight).toBe(6);
    other.ticket.leave();
    for (const ticket of tickets) ticket.leave();
    expect(admission.state().inFlight).toBe(0);
  });

  it('gives one key at most its share within a project', () => {
    const admission = new Admission(admissionLimits(2, 8, { perProject: 5, perKey: 2 }));
    working(admission, 'p', 'k1');
    working(admission, 'p', 'k1');
    const third = admission.enter();
    expect(refusal(() => third.admit(scope('p', 'k1')))).toEqual(['rate_limited', 1]);
    expect(refusal(() => third.admit(scope('p', 'k2')))).toBeNull();
  });

  it('refuses a request that waited `maxWaitMs` for work', async () => {
    const admission = new Admission(admissionLimits(1, 4, { maxWaitMs: 50 }));
    working(admission, 'a');
    const late = working(admission, 'b');
    await expect(late.work).rejects.toMatchObject({ code: 'rate_limited' });
    late.ticket.leave();
    expect(admission.state().inFlight).toBe(1);
  });

  it('refuses at the door once the measured service time says a newcomer would wait too long', async () => {
    // One request took 2 s at work: with one slot, the third one waiting would wait 6 s.
    const admission = await busyAfterTwoSeconds();
    working(admission, 'p');
    working(admission, 'p');
    expect(admission.estimatedWaitMs()).toBe(6000);
    expect(refusal(() => admission.enter())).toEqual(['rate_limited', 6]);
  });

  it('counts only requests waiting for work as ahead of a newcomer, not bodies still arriving', async () => {
    const admission = await busyAfterTwoSeconds();
    // Fifty exporters uploading: entered and admitted, their bodies not read yet.
    const uploading = Array.from({ length: 50 }, () => {
      const ticket = admission.enter();
      ticket.admit(scope('p'));
      return ticket;
    });
    expect(admission.estimatedWaitMs()).toBe(2000);
    expect(refusal(() => admission.enter().leave())).toBeNull();
    working(admission, 'p');
    expect(admission.estimatedWaitMs()).toBe(4000);
    for (const ticket of uploading) ticket.leave();
  });

  it('gives a request whose body took long to arrive its whole wait for work', async () => {
    const admission = new Admission(admissionLimits(1, 4, { maxWaitMs: 100 }));
    const first = working(admission, 'a');
    await first.work;
    const slowUpload = admission.enter();
    slowUpload.admit(scope('b'));
    await new Promise((resolve) => setTimeout(resolve, 150)); // its body arriving
    const waited = slowUpload.work();
    setTimeout(() => first.ticket.leave(), 40);
    await expect(waited).resolves.toBeUndefined();
    slowUpload.leave();
    expect(admission.state().inFlight).toBe(0);
  });

  it('bounds the bytes of bodies held, refusing the chunk past it with Retry-After, and frees them on leave', () => {
    const admission = new Admission(admissionLimits(2, 8, { bodyBytes: 1000 }));
    const a = admission.enter();
    a.admit(scope('p'));
    a.hold(600);
    const b = admission.enter();
    b.admit(scope('q'));
    b.hold(400);
    expect(admission.state().bodyBytesHeld).toBe(1000);
    expect(refusal(() => b.hold(1))).toEqual(['rate_limited', 1]);
    a.leave();
    expect(admission.state().bodyBytesHeld).toBe(400);
    expect(refusal(() => b.hold(600))).toBeNull();
    b.leave();
    b.leave(); // twice: freed once
    expect(admission.state().bodyBytesHeld).toBe(0);
  });

  it('reports what it holds: requests in flight, at work and waiting for work, body bytes, crowded', async () => {
    const admission = new Admission(admissionLimits(1, 3, { bodyBytes: 1000 }));
    expect(admission.state()).toEqual({
      inFlight: 0,
      atWork: 0,
      waitingForWork: 0,
      bodyBytesHeld: 0,
      crowded: false,
    });
    const first = working(admission, 'p');
    await first.work;
    first.ticket.hold(300);
    const uploading = admission.enter();
    uploading.admit(scope('p'));
    expect(admission.state()).toEqual({
      inFlight: 2,
      atWork: 1,
      waitingForWork: 0,
      bodyBytesHeld: 300,
      crowded: false,
    });
    const waiting = working(admission, 'p');
    uploading.hold(300);
    expect(admission.state()).toEqual({
      inFlight: 3,
      atWork: 1,
      waitingForWork: 1,
      bodyBytesHeld: 600,
      crowded: true,
    });
    first.ticket.leave();
    await waiting.work;
    waiting.ticket.leave();
    uploading.leave();
    expect(admission.state()).toMatchObject({ inFlight: 0, atWork: 0, bodyBytesHeld: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { AppError } from '../lib/app-error';
import { Admission, admissionLimits } from './admission';
import { exportTraces } from './export-traces';
import type { IngestDeps } from './export-traces';
import type { IngestSpool } from './spool';
import { recentLoopLagMs, startLoopLagMonitor } from './loop-lag';

/** A body that sends one byte every `everyMs` until it is cancelled. */
function trickle(everyMs: number): ReadableStream<Uint8Array> {
  let timer: NodeJS.Timeout | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(() => controller.enqueue(new Uint8Array(1)), everyMs);
    },
    cancel() {
      clearInterval(timer);
    },
  });
}

/** A spool that has room and whose oldest request has waited `behindMs`. */
const spoolBehind = (behindMs: number) =>
  ({
    checkRoom: () => {},
    backlog: { requests: behindMs > 0 ? 40 : 0, bytes: 0, oldestAgeMs: behindMs, stuck: 0 },
  }) as unknown as IngestSpool;

// One place: the request takes it, so admission is crowded and the minimum pace holds.
const crowded = () => new Admission(admissionLimits(1, 0));

function deps(loopLagMs: number, spool?: IngestSpool, admission = crowded()): IngestDeps {
  return {
    ...(spool ? { spool } : {}),
    // Never reached: the body is refused before anything is stored.
    database: () => ({}) as Database,
    authenticate: async () => ({ projectId: 'p', keyId: 'k' }),
    admission,
    body: { timeoutMs: 10_000, minBytesPerSecond: 16 * 1024 },
    loopLagMs: () => loopLagMs,
  };
}

const slowExport = (loopLagMs: number, spool?: IngestSpool) =>
  exportTraces(
    { key: 'k', format: 'json', gzipped: false, declaredBytes: 100_000, body: trickle(500) },
    deps(loopLagMs, spool),
  ).then(
    () => {
      throw new Error('a trickling body was accepted');
    },
    (error: unknown) => error as AppError,
  );

describe('exportTraces: a body that comes too slowly', () => {
  it('is refused as retryable (429 with Retry-After), never 408, which exporters take as final', async () => {
    const error = await slowExport(0);
    expect(error).toBeInstanceOf(AppError);
    expect([error.code, error.status]).toEqual(['rate_limited', 429]);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // At a server keeping up the message says no more than the pace.
    expect(error.message).toMatch(
      /^the request body came too slowly \(\d bytes in 1\.\d s; send it at least 16384 bytes\/s after the first second, whole within 10 s\); retry after \d+ s$/,
    );
  });

  it('says so when its event loop lags: the slowness may be the server’s own', async () => {
    const error = await slowExport(180);
    expect([error.code, error.status]).toEqual(['rate_limited', 429]);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(error.message).toMatch(
      /^the request body came too slowly \(\d bytes in 1\.\d s, while this server is busy \(its event loop 180 ms behind\); retry after \d+ s$/,
    );
  });

  it('says so when its spool is a second behind (a burst worked off)', async () => {
    const error = await slowExport(0, spoolBehind(3_000));
    expect([error.code, error.status]).toEqual(['rate_limited', 429]);
    expect(error.message).toMatch(
      /, while this server is busy \(its spool 3\.0 s behind\); retry after/,
    );
  });

  it('does not call a spool that keeps up busy', async () => {
    const error = await slowExport(0, spoolBehind(400));
    expect([error.code, error.status]).toEqual(['rate_limited', 429]);
    expect(error.message).not.toMatch(/busy/);
  });

  it('may go on arriving until the deadline while admission has room, and is cut then', async () => {
    const started = Date.now();
    const roomy = deps(0, undefined, new Admission(admissionLimits(2, 4)));
    const error = await exportTraces(
      { key: 'k', format: 'json', gzipped: false, declaredBytes: 100_000, body: trickle(500) },
      { ...roomy, body: { timeoutMs: 2500, minBytesPerSecond: 16 * 1024 } },
    ).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    expect(error?.code).toBe('rate_limited');
    expect(error?.message).toMatch(/^the request body came too slowly \(\d bytes in 2\.\d s;/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2400);
  });

  it('is refused once the bodies held pass their bound, which it then lets go of', async () => {
    const admission = new Admission(admissionLimits(2, 4, { bodyBytes: 1000 }));
    const twoChunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(600));
        controller.enqueue(new Uint8Array(600));
        controller.close();
      },
    });
    const error = await exportTraces(
      { key: 'k', format: 'json', gzipped: false, declaredBytes: null, body: twoChunks },
      deps(0, undefined, admission),
    ).then(
      () => null,
      (e: unknown) => e as AppError,
    );
    expect(error?.code).toBe('rate_limited');
    expect(error?.message).toMatch(
      /^ingest holds 600 bytes of request bodies, its bound is 1000 bytes; retry after 1 s$/,
    );
    expect(admission.state().bodyBytesHeld).toBe(0);
    expect(admission.state().inFlight).toBe(0);
  });
});

describe('exportTraces: a gzip body', () => {
  it('waits as sent and is inflated only at work (a corrupt one is refused there, not before)', async () => {
    const admission = new Admission(admissionLimits(1, 4));
    const holder = admission.enter();
    holder.admit({ projectId: 'other', keyId: 'o' });
    await holder.work();
    const notGzip = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1, 2, 3, 4]));
        controller.close();
      },
    });
    let settled: AppError | null | undefined;
    const answer = exportTraces(
      { key: 'k', format: 'protobuf', gzipped: true, declaredBytes: 4, body: notGzip },
      deps(0, undefined, admission),
    ).then(
      () => (settled = null),
      (e: unknown) => (settled = e as AppError),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Read whole, holding its four bytes as sent, and not yet inflated: still waiting.
    expect(settled).toBeUndefined();
    expect(admission.state().bodyBytesHeld).toBe(4);
    holder.leave();
    await answer;
    expect(settled?.status).toBe(400);
    expect(admission.state().inFlight).toBe(0);
  });
});

describe('recentLoopLagMs', () => {
  it('reads a lag from its first call once the monitor was started (as the server starts it)', async () => {
    startLoopLagMonitor();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const until = Date.now() + 150;
    while (Date.now() < until) {
      // hold the loop
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(recentLoopLagMs()).toBeGreaterThanOrEqual(100);
  });

  it('reads a loop held for 300 ms as lagging at least 250 ms, more than before', async () => {
    recentLoopLagMs();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const quiet = recentLoopLagMs();
    const until = Date.now() + 300;
    while (Date.now() < until) {
      // hold the loop
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const held = recentLoopLagMs();
    expect(held).toBeGreaterThanOrEqual(250);
    expect(held).toBeGreaterThan(quiet);
  });
});

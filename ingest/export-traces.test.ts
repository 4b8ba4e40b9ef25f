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

function deps(loopLagMs: number, spool?: IngestSpool): IngestDeps {
  return {
    ...(spool ? { spool } : {}),
    // Never reached: the body is refused before anything is stored.
    database: () => ({}) as Database,
    authenticate: async () => ({ projectId: 'p', keyId: 'k' }),
    admission: new Admission(admissionLimits(2, 4)),
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
  it('is the client’s fault at a server keeping up: 408, which exporters do not retry', async () => {
    const error = await slowExport(0);
    expect(error).toBeInstanceOf(AppError);
    expect([error.code, error.status]).toEqual(['request_timeout', 408]);
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('may be the server’s own while its event loop lags: 429 with Retry-After, retried', async () => {
    const error = await slowExport(180);
    expect([error.code, error.status]).toEqual(['rate_limited', 429]);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(error.message).toMatch(
      /^the request body came too slowly \(\d bytes in 1\.\d s, while this server is busy \(its event loop 180 ms behind\); retry after \d+ s$/,
    );
  });

  it('may be the server’s own while its spool is a second behind (a burst worked off): 429', async () => {
    const error = await slowExport(0, spoolBehind(3_000));
    expect([error.code, error.status]).toEqual(['rate_limited', 429]);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(error.message).toMatch(
      /, while this server is busy \(its spool 3\.0 s behind\); retry after/,
    );
  });

  it('is the client’s at a spool that keeps up: 408', async () => {
    const error = await slowExport(0, spoolBehind(400));
    expect([error.code, error.status]).toEqual(['request_timeout', 408]);
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

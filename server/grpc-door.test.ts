// The gRPC door holds what the HTTP door holds: no byte of a message is read before its key is
// checked, the bytes of messages held count against the one body budget, a slow message is cut at
// the deadline, and one address cannot take every connection or call. Driven by a raw HTTP/2
// client, the way an attacker would, not by a well-behaved exporter.
import { constants as h2 } from 'node:http2';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../e2e/support/test-server';
import type { TestServer } from '../e2e/support/test-server';
import { holdingCall, openGrpcConnection } from '../e2e/support/grpc-attack';
import { listenGrpc } from './grpc-server';
import type { GrpcListener } from './grpc-server';
import { otlpEndpointDeps } from './runtime';

const MiB = 1024 * 1024;
const BODY_BUDGET = 4 * MiB;
const DEADLINE_MS = 2000;

describe('the gRPC door', () => {
  let server: TestServer;
  let grpc: GrpcListener;
  const sockets: Socket[] = [];
  const client = () => {
    const { session, socket } = openGrpcConnection(grpc.port);
    sockets.push(socket);
    return session;
  };
  // Each case starts with none of the address's connections taken.
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    while (grpc.state().connections > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  });
  beforeAll(async () => {
    server = await startTestServer('pglite', {
      maxBodyBytes: 20 * MiB,
      ingestQueue: 256,
      ingest: { bodyBytes: BODY_BUDGET },
      bodyTimeoutMs: DEADLINE_MS,
      bodyMinBytesPerSecond: 0,
    });
    grpc = await listenGrpc(
      {
        host: '127.0.0.1',
        port: 0,
        maxBodyBytes: 20 * MiB,
        limits: { connectionsPerAddress: 4, callsPerAddress: 40 },
      },
      otlpEndpointDeps,
    );
  });
  afterAll(async () => {
    await grpc?.close();
    await server?.close();
  });

  const held = () => server.runtime.admission.state().bodyBytesHeld;

  it('answers a call without a key before reading its message, and holds none of it', async () => {
    const session = client();
    const calls = Array.from({ length: 16 }, () =>
      holdingCall(session, { key: null, announced: 15 * MiB, sent: 2 * MiB }),
    );
    const ends = await Promise.all(calls.map((call) => call.ended));
    for (const end of ends) {
      expect(end.status).toBe(16); // UNAUTHENTICATED
      expect(end.message).toMatch(/key/i);
      expect(end.afterMs).toBeLessThan(DEADLINE_MS);
    }
    expect(held()).toBe(0);
  });

  it('counts held messages against the body budget, refuses past it, and cuts them at the deadline', async () => {
    const session = client();
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, held())), 5);
    const calls = Array.from({ length: 16 }, () =>
      holdingCall(session, { key: server.key, announced: 15 * MiB, sent: 1 * MiB }),
    );
    const ends = await Promise.all(calls.map((call) => call.ended));
    clearInterval(watch);
    // Within the budget all along, and some of it was in use: the messages were being read.
    expect(peak).toBeLessThanOrEqual(BODY_BUDGET);
    expect(peak).toBeGreaterThan(BODY_BUDGET / 2);
    // Every call is told to come back later (RESOURCE_EXHAUSTED with RetryInfo): those past the
    // budget at once, the rest, which waited for bytes that never came, at the deadline.
    for (const end of ends) {
      expect(end.status).toBe(8);
      expect(end.retryInfo).toBe(true);
      expect(end.afterMs).toBeLessThan(DEADLINE_MS + 2000);
    }
    const refused = ends.filter((end) => /of request bodies, its bound is/.test(end.message));
    const cut = ends.filter((end) => /too slowly/.test(end.message));
    expect(refused.length).toBeGreaterThan(0);
    expect(cut.length).toBeGreaterThan(0);
    expect(refused.length + cut.length).toBe(ends.length);
    for (const end of refused) expect(end.afterMs).toBeLessThan(DEADLINE_MS);
    expect(held()).toBe(0);
  });

  it('refuses a message announced past the body limit before it arrives', async () => {
    const call = holdingCall(client(), { key: server.key, announced: 64 * MiB, sent: 0 });
    const end = await call.ended;
    expect(end.status).toBe(8);
    expect(end.retryInfo).toBe(false);
    expect(end.afterMs).toBeLessThan(DEADLINE_MS);
  });

  it('bounds the connections and the calls of one address, with RetryInfo', async () => {
    // Four connections are the address's share; the fifth is told so on its first call.
    const own = Array.from({ length: 4 }, () => client());
    await Promise.all(
      own.map((session) => new Promise((resolve) => session.once('connect', resolve))),
    );
    const extra = client();
    const refusedConnection = await holdingCall(extra, {
      key: server.key,
      announced: 10,
      sent: 0,
    }).ended;
    expect(refusedConnection.status).toBe(8);
    expect(refusedConnection.retryInfo).toBe(true);
    expect(refusedConnection.message).toMatch(/connections from one address/);

    // Forty calls in flight are the address's share across its connections; the next is refused.
    const holding = Array.from({ length: 40 }, (_, k) =>
      holdingCall(own[k % own.length]!, { key: server.key, announced: 100, sent: 10 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refusedCall = await holdingCall(own[0]!, { key: server.key, announced: 10, sent: 0 })
      .ended;
    expect(refusedCall.status).toBe(8);
    expect(refusedCall.retryInfo).toBe(true);
    expect(refusedCall.message).toMatch(/calls at once from one address/);
    for (const call of holding) call.stream.close(h2.NGHTTP2_CANCEL);
    await Promise.all(holding.map((call) => call.ended));
  });
});

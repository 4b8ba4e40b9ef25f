import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_KINDS } from '../db/test-database';
import { spanBatch } from '../e2e/support/payloads';
import { startTestServer } from '../e2e/support/test-server';
import type { TestServer } from '../e2e/support/test-server';

/** A POST /v1/traces that sends its headers and then one byte every two seconds. */
function trickle(server: TestServer, key: string) {
  const { hostname, port } = new URL(server.url);
  const socket: Socket = connect(Number(port), hostname);
  const opened = Date.now();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  const closed = new Promise<{ status: number; afterMs: number; answer: string }>((resolve) =>
    socket.on('close', () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1] ?? 0),
        afterMs: Date.now() - opened,
        answer,
      }),
    ),
  );
  socket.on('error', () => {});
  socket.write(
    [
      'POST /v1/traces HTTP/1.1',
      `Host: ${hostname}:${port}`,
      `Authorization: Bearer ${key}`,
      'Content-Type: application/json',
      'Content-Length: 100000',
      '',
      '{',
    ].join('\r\n'),
  );
  const timer = setInterval(() => socket.write(' '), 2000);
  void closed.finally(() => clearInterval(timer));
  return { closed, stop: () => socket.destroy() };
}

const post = (server: TestServer, key: string, body: string) =>
  fetch(`${server.url}/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });

/** The door as /api/health reports it. */
async function doorState(server: TestServer): Promise<unknown> {
  return ((await (await fetch(`${server.url}/api/health`)).json()) as { ingest: unknown }).ingest;
}

// Tight admission (the built server's defaults before the spool): every place can be taken by one
// key's slow bodies, which is what this checks.
const LIMITS = { pglite: [2, 4], postgres: [8, 16] } as const;
// Below the 15 s default so the trickles that outlive the crowd end within the test.
const BODY_DEADLINE_MS = 8000;

describe.each(TEST_DATABASE_KINDS)('slow bodies on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    const [ingestConcurrency, ingestQueue] = LIMITS[kind];
    server = await startTestServer(kind, {
      ingestConcurrency,
      ingestQueue,
      bodyTimeoutMs: BODY_DEADLINE_MS,
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a key trickling bodies on every connection it can open is cut for its pace while it crowds the door, the rest at the deadline, and other clients are served meanwhile', async () => {
    const [concurrency, queue] = LIMITS[kind];
    const slow = Array.from({ length: concurrency + queue }, () => trickle(server, server.key));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Health shows the door crowded by the trickles, none of them at work.
      const door = await doorState(server);
      expect(door).toMatchObject({ atWork: 0, waitingForWork: 0, crowded: true });
      // Every place but one: a key may not take the last (admission.ts `admissionLimits`).
      expect((door as { inFlight: number }).inFlight).toBe(concurrency + queue - 1);
      const other = await server.newProject(`other-${kind}`);
      const started = Date.now();
      const served = await post(server, other.key, spanBatch(50).body);
      expect(served.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(3000);
      // The same project's other exporter is served too, once the trickles are cut.
      const sameProject = await post(server, server.key, spanBatch(50).body);
      expect([200, 429]).toContain(sameProject.status);

      const answers = await Promise.all(slow.map((s) => s.closed));
      for (const answer of answers) {
        // Cut for its pace, or refused at once past the key's share: retryable either way (429
        // with Retry-After), since an exporter drops a batch answered 408 for good.
        expect(answer.status).toBe(429);
        expect(answer.answer).toMatch(/retry-after: \d+/i);
        expect(answer.afterMs).toBeLessThan(BODY_DEADLINE_MS + 2000);
      }
      // Crowded, the door enforces the pace: some are cut in seconds, long before the deadline.
      const cutForPace = answers.filter(
        (a) => /request body came too slowly/.test(a.answer) && a.afterMs < 5000,
      );
      expect(cutForPace.length).toBeGreaterThan(0);
      expect((await post(server, server.key, spanBatch(50).body)).status).toBe(200);
      await expect
        .poll(() => doorState(server))
        .toEqual({ inFlight: 0, atWork: 0, waitingForWork: 0, bodyBytesHeld: 0, crowded: false });
    } finally {
      for (const s of slow) s.stop();
    }
  });
});

import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '../db/test-database';
import { markRunsDirty } from '../db/write/dirty-runs';
import { TEST_DATABASE_KINDS } from '../db/test-database';
import { createSender } from '../e2e/support/otel';
import { emitRun, restartLoop } from '../e2e/support/scenarios';
import { startTestServer } from '../e2e/support/test-server';
import type { TestServer } from '../e2e/support/test-server';

function post(
  server: TestServer,
  body: BodyInit,
  headers: Record<string, string>,
  key = server.key,
) {
  return fetch(`${server.url}/v1/traces`, {
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${key}`, ...headers },
  });
}

const json = { 'content-type': 'application/json' };
const protobuf = { 'content-type': 'application/x-protobuf' };

function span(
  traceId: string,
  spanId: string,
  parent: string,
  attributes: Record<string, string | number>,
  startSec: number,
  endSec: number,
) {
  return {
    traceId,
    spanId,
    parentSpanId: parent,
    name: parent ? 'step' : 'agent',
    startTimeUnixNano: `${startSec}000000000`,
    endTimeUnixNano: `${endSec}000000000`,
    attributes: Object.entries(attributes).map(([key, value]) => ({
      key,
      value:
        typeof value === 'string'
          ? { stringValue: value }
          : Number.isInteger(value)
            ? { intValue: value }
            : { doubleValue: value },
    })),
  };
}

function otlpJson(spans: object[]): string {
  return JSON.stringify({
    resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }],
  });
}

describe.each(TEST_DATABASE_KINDS)('POST /v1/traces on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { maxBodyBytes: 256 * 1024 });
  });
  afterAll(async () => {
    await server?.close();
  });

  const runRow = async (id: string) => {
    await server.settle();
    return (await rawRows(server.database.db, sql`select * from runs where id = ${id}`))[0];
  };

  it.each([
    ['proto', false],
    ['proto', true],
    ['json', false],
    ['json', true],
  ] as const)(
    'stores a run sent by the real %s exporter (gzip %s) as run and steps',
    async (protocol, gzip) => {
      const sender = createSender({ url: server.url, key: server.key, protocol, gzip });
      const traceId = emitRun(sender.tracer, restartLoop());
      await sender.shutdown();
      const run = await runRow(traceId);
      expect(run).toMatchObject({
        agent: 'ops-agent',
        goal: 'Bring the orders service back up',
        exit_category: 'no_progress',
        exit_reason: 'no_progress',
        step_count: 4,
        repeat_step: 3,
        repeat_of: 2,
      });
      expect(Number(run?.cost_usd)).toBeCloseTo(0.07, 10);
      const steps = await rawRows(
        server.database.db,
        sql`select index, action, action_hash, signals from steps where run_id = ${traceId} order by ordinal`,
      );
      expect(steps.map((s) => s.action)).toEqual([
        'check_health',
        'restart_service',
        'restart_service',
        'restart_service',
      ]);
      expect(steps[1]?.action_hash).toBe(steps[2]?.action_hash); // ' orders ' is folded
      expect(steps[2]?.signals).toEqual(['repeat']);
    },
  );

  it('stores a batch sent twice once, and steps sent before their root join the same run', async () => {
    const trace = 'c0ffee00000000000000000000000001';
    const steps = otlpJson([
      span(
        trace,
        '0000000000000002',
        '0000000000000001',
        { 'loop.step': 1, 'loop.action': 'a', 'loop.cost_usd': 0.5 },
        1_700_000_001,
        1_700_000_002,
      ),
      span(
        trace,
        '0000000000000003',
        '0000000000000001',
        { 'loop.step': 2, 'loop.action': 'b', 'loop.cost_usd': 0.25 },
        1_700_000_002,
        1_700_000_003,
      ),
    ]);
    const first = await post(server, steps, json);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('{}');
    expect(await runRow(trace)).toMatchObject({ exit_category: 'running', step_count: 2 });
    expect((await post(server, steps, json)).status).toBe(200);
    const root = otlpJson([
      span(
        trace,
        '0000000000000001',
        '',
        { 'loop.exit.reason': 'goal_met', 'loop.agent': 'late-root' },
        1_700_000_000,
        1_700_000_004,
      ),
    ]);
    expect((await post(server, root, json)).status).toBe(200);
    expect((await post(server, root, json)).status).toBe(200);
    const run = await runRow(trace);
    expect(run).toMatchObject({
      exit_category: 'goal_satisfied',
      agent: 'late-root',
      step_count: 2,
      span_count: 3,
    });
    expect(Number(run?.cost_usd)).toBe(0.75);
    const [count] = await rawRows(
      server.database.db,
      sql`select count(*)::int as n from spans where trace_id = ${trace}`,
    );
    expect(count?.n).toBe(3);
  });

  it('a later copy of a span completes the earlier one', async () => {
    const trace = 'c0ffee00000000000000000000000002';
    const open = span(trace, '0000000000000001', '', { 'loop.agent': 'x' }, 1_700_000_000, 0);
    open.endTimeUnixNano = '0';
    await post(server, otlpJson([open]), json);
    expect(await runRow(trace)).toMatchObject({ exit_category: 'running' });
    const closed = span(
      trace,
      '0000000000000001',
      '',
      { 'loop.exit.reason': 'max_steps' },
      1_700_000_000,
      1_700_000_009,
    );
    await post(server, otlpJson([closed]), json);
    expect(await runRow(trace)).toMatchObject({
      exit_category: 'budget_exhausted',
      exit_kind: 'steps',
      agent: 'x',
    });
  });

  it('answers partial_success for exactly the spans it refuses, and stores the rest', async () => {
    const trace = 'c0ffee00000000000000000000000003';
    const good = span(
      trace,
      '0000000000000001',
      '',
      { 'loop.agent': 'y' },
      1_700_000_000,
      1_700_000_001,
    );
    const badId = { ...good, spanId: 'abc' };
    const noStart = { ...good, spanId: '0000000000000009', startTimeUnixNano: '0' };
    const response = await post(server, otlpJson([good, badId, noStart]), json);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      partialSuccess: { rejectedSpans: string; errorMessage: string };
    };
    expect(body.partialSuccess.rejectedSpans).toBe('2');
    expect(body.partialSuccess.errorMessage).toMatch(/spanId/);
    expect(await runRow(trace)).toMatchObject({ span_count: 1 });
  });

  it.each([
    ['no key', json, null, 401],
    ['an unknown key', json, 'lsk_not-a-key-at-all', 401],
    ['text/plain', { 'content-type': 'text/plain' }, undefined, 415],
    ['Content-Encoding br', { ...json, 'content-encoding': 'br' }, undefined, 415],
  ] as const)('refuses %s', async (_name, headers, key, status) => {
    const auth: Record<string, string> =
      key === null ? {} : { authorization: `Bearer ${key ?? server.key}` };
    const response = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      body: otlpJson([]),
      headers: { ...auth, ...headers },
    });
    expect(response.status).toBe(status);
  });

  it("holds a project's requests in the spool while its derivation lags, refuses it only once it holds half the spool, and never its neighbour", async () => {
    const { config, deriver, spool } = server.runtime;
    const db = server.database.db;
    const other = await server.newProject(`lagging-neighbour-${kind}`);
    const saved = { backlog: config.deriveBacklog, maxRequests: spool.limits.maxRequests };
    const heldTrace = kind === 'pglite' ? 'ab'.repeat(16) : 'ac'.repeat(16);
    const neighbourTrace = kind === 'pglite' ? 'ad'.repeat(16) : 'ae'.repeat(16);
    const request = (trace: string, k: number) =>
      otlpJson([
        span(
          trace,
          `${k}`.padStart(16, '0'),
          '',
          { 'loop.run.id': `held-${trace}` },
          10 + k,
          11 + k,
        ),
      ]);
    const storedOf = async (trace: string) =>
      (await rawRows(db, sql`select count(*)::int as n from spans where trace_id = ${trace}`))[0]!
        .n;
    deriver.stop();
    await deriver.idle();
    config.deriveBacklog = 10;
    spool.limits.maxRequests = 4;
    await markRunsDirty(
      db,
      server.projectId,
      Array.from({ length: 11 }, (_, k) => `waiting-${k}`),
    );
    await deriver.recount();
    try {
      // Taken while the spool has room for it: a burst of new runs is absorbed, not refused.
      expect((await post(server, request(heldTrace, 1), json)).status).toBe(200);
      expect((await post(server, request(heldTrace, 2), json)).status).toBe(200);
      // Half the spool's bound is this project's: past it, 429 with Retry-After, to it alone.
      const refused = await post(server, request(heldTrace, 3), json);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await refused.text()).toMatch(/2 requests of this project wait to be stored/);
      expect((await post(server, request(neighbourTrace, 1), json, other.key)).status).toBe(200);
      // The neighbour's spans are stored by the workers; the lagging project's wait in the spool.
      await expect.poll(() => storedOf(neighbourTrace), { timeout: 10_000 }).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(await storedOf(heldTrace)).toBe(0);
      expect(spool.shareOf(server.projectId).requests).toBe(2);
      // Health says why the spool is not draining.
      const health = (await (await fetch(`${server.url}/api/health`)).json()) as {
        spool: { requests: number; heldBack: number | null };
      };
      expect(health.spool).toMatchObject({ requests: 2, heldBack: 1 });
    } finally {
      config.deriveBacklog = saved.backlog;
      spool.limits.maxRequests = saved.maxRequests;
      await db.execute(sql`delete from dirty_runs where run_id like 'waiting-%'`);
      await deriver.recount();
      deriver.start(200);
    }
    // Derivation caught up: the workers store what they held, and the project is taken again.
    await expect.poll(() => storedOf(heldTrace), { timeout: 10_000 }).toBe(2);
    expect((await post(server, request(heldTrace, 3), json)).status).toBe(200);
    await server.settle();
    expect(await storedOf(heldTrace)).toBe(3);
    const after = (await (await fetch(`${server.url}/api/health`)).json()) as {
      spool: { heldBack: number | null };
    };
    expect(after.spool.heldBack).toBe(0);
  });

  it('answers 400 naming what is broken for malformed protobuf and JSON', async () => {
    const broken = await post(server, new Uint8Array([0x0a, 0xff, 0xff, 0x01]), protobuf);
    expect(broken.status).toBe(400);
    expect(broken.headers.get('content-type')).toBe('application/x-protobuf');
    const badJson = await post(server, '{"resourceSpans": [', json);
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { message: string }).message).toMatch(/JSON/);
  });

  it('answers 413 over the limit, before and after gzip, without inflating a bomb', async () => {
    const big = otlpJson([
      span(
        'c0ffee00000000000000000000000004',
        '0000000000000001',
        '',
        { x: 'y'.repeat(300 * 1024) },
        1,
        2,
      ),
    ]);
    expect((await post(server, big, json)).status).toBe(413);
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(256 * 1024);
    expect((await post(server, bomb, { ...json, 'content-encoding': 'gzip' })).status).toBe(413);
    expect(
      (
        await post(server, gzipSync('not gzip? it is, but not JSON'), {
          ...json,
          'content-encoding': 'gzip',
        })
      ).status,
    ).toBe(400);
  });
});

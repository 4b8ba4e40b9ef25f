import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASE_KINDS } from '@/db/test-database';
import type { DatabaseHandle } from '@/db/client';
import { startTestServer, TEST_WEBHOOK_ALLOW } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import { closedPort, startReceiver } from '@/e2e/support/webhook-receiver';
import type { Receiver } from '@/e2e/support/webhook-receiver';
import { runBody } from '@/e2e/support/alert-runs';
import { newAlertKey } from '@/lib/alerts/secret-box';
import type { TestRun } from '@/e2e/support/alert-runs';
import { lastThursdayNoonMs } from '@/trajectory/report-weeks';

type Json = Record<string, unknown>;
interface AlertEvent {
  id: string;
  ruleId: string;
  runId: string | null;
  summary: string;
  status: string;
  deliveries: { at: string; attempt: number; httpStatus: number | null; error: string | null }[];
}

const trace = (n: number) => `a1e47000000000000000000000000${n.toString(16).padStart(3, '0')}`;

function client(server: () => TestServer) {
  const call = async (method: string, path: string, body?: unknown, key = server().key) => {
    const response = await fetch(`${server().url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
  };
  return {
    call,
    createRule: async (rule: Json) => {
      const { status, body } = await call('POST', '/api/v1/alerts/rules', rule);
      expect(status, JSON.stringify(body)).toBe(200);
      return (body.rule as { id: string }).id;
    },
    send: async (run: TestRun) => {
      const { status } = await call('POST', '/v1/traces', runBody(run));
      expect(status).toBe(200);
    },
    events: async () =>
      (await call('GET', '/api/v1/alerts/events')).body.events as unknown as AlertEvent[],
  };
}

async function until<T>(what: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const rule = (name: string, when: Json, webhook: Json, extra: Json = {}) => ({
  name,
  when,
  webhook,
  ...extra,
});

describe.each(TEST_DATABASE_KINDS)('alert rules through the API on %s', (kind) => {
  let server: TestServer;
  const api = client(() => server);
  const hook = { url: 'http://127.0.0.1:9/hook', format: 'json' };

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.close());

  it('creates, lists, changes and deletes a rule; the secret is never shown', async () => {
    const created = await api.call(
      'POST',
      '/api/v1/alerts/rules',
      rule('loops', { kind: 'loop', minWastedUsd: 1.5 }, { ...hook, secret: 's3cret-value' }),
    );
    expect(created.status).toBe(200);
    const id = (created.body.rule as { id: string }).id;
    expect(created.body.rule).toEqual({
      id,
      name: 'loops',
      enabled: true,
      when: { kind: 'loop', minWastedUsd: 1.5 },
      agent: null,
      webhook: { url: hook.url, format: 'json', hasSecret: true },
    });
    expect(JSON.stringify(created.body)).not.toContain('s3cret-value');
    const changed = await api.call('PATCH', `/api/v1/alerts/rules/${id}`, {
      enabled: false,
      agent: 'coder',
      webhook: { format: 'slack' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.rule).toMatchObject({
      enabled: false,
      agent: 'coder',
      webhook: { url: hook.url, format: 'slack', hasSecret: true },
    });
    const listed = await api.call('GET', '/api/v1/alerts/rules');
    expect(listed.body.rules).toEqual([changed.body.rule]);
    const removed = await api.call('PATCH', `/api/v1/alerts/rules/${id}`, {
      webhook: { secret: null },
    });
    expect(removed.body.rule).toMatchObject({ webhook: { hasSecret: false } });
    expect((await api.call('DELETE', `/api/v1/alerts/rules/${id}`)).status).toBe(204);
    expect((await api.call('GET', `/api/v1/alerts/rules/${id}`)).status).toBe(404);
    expect((await api.call('GET', '/api/v1/alerts/rules')).body.rules).toEqual([]);
  });

  it("another project's key can neither see nor change the rules", async () => {
    const id = await api.createRule(rule('mine', { kind: 'fabricated_success' }, hook));
    const other = await server.newProject(`other-${kind}`);
    expect((await api.call('GET', '/api/v1/alerts/rules', undefined, other.key)).body).toEqual({
      rules: [],
    });
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { enabled: false }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await api.call(method, `/api/v1/alerts/rules/${id}`, body, other.key);
      expect(answer.status, method).toBe(404);
      expect(answer.body).toMatchObject({ error: { code: 'not_found' } });
    }
    expect((await api.call('GET', `/api/v1/alerts/rules/${id}`)).body.rule).toMatchObject({
      enabled: true,
    });
    expect((await api.call('GET', '/api/v1/alerts/rules')).status).toBe(200);
    expect((await api.call('GET', '/api/v1/alerts/rules', undefined, 'lsk_nope')).status).toBe(401);
    await api.call('DELETE', `/api/v1/alerts/rules/${id}`);
  });

  it('answers bad rule bodies 400, naming what is wrong', async () => {
    const cases: [unknown, RegExp][] = [
      [{ when: { kind: 'loop' }, webhook: hook }, /name:/],
      [rule('x', { kind: 'sometimes' }, hook), /when.*kind must be one of fabricated_success/],
      [rule('x', { kind: 'run_cost_over', usd: -1 }, hook), /when\.usd:/],
      [rule('x', { kind: 'run_cost_over' }, hook), /when\.usd:/],
      [rule('x', { kind: 'exit_category', categories: ['nope'] }, hook), /when\.categories\.0:/],
      [rule('x', { kind: 'exit_category', categories: [] }, hook), /when\.categories:/],
      [
        rule(
          'x',
          { kind: 'exit_share_rise', category: 'no_progress', window: '2d', points: 5 },
          hook,
        ),
        /when\.window: must be one of 1d, 7d/,
      ],
      [
        rule('x', { kind: 'cost_per_verified_unit_rise', window: '7d', percent: 0 }, hook),
        /when\.percent:/,
      ],
      [
        rule('x', { kind: 'loop' }, { url: 'ftp://example.com/x', format: 'json' }),
        /webhook\.url: must be an http/,
      ],
      [
        rule('x', { kind: 'loop' }, { url: 'not a url', format: 'json' }),
        /webhook\.url: not a URL/,
      ],
      [
        rule('x', { kind: 'loop' }, { url: 'http://u:p@example.com/', format: 'json' }),
        /webhook\.url: must not carry/,
      ],
      [rule('x', { kind: 'loop' }, { url: hook.url, format: 'xml' }), /webhook\.format:/],
      [rule('x', { kind: 'loop' }, { ...hook, secret: 'short' }), /webhook\.secret:/],
      [{ ...rule('x', { kind: 'loop' }, hook), colour: 'red' }, /colour/],
      [rule('x\u0000', { kind: 'loop' }, hook), /name: contains a NUL/],
      ['{not json', /send a JSON body/],
    ];
    for (const [body, message] of cases) {
      const answer = await api.call('POST', '/api/v1/alerts/rules', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body.error as { message: string }).message).toMatch(message);
    }
    const id = await api.createRule(rule('ok', { kind: 'loop' }, hook));
    const patch = await api.call('PATCH', `/api/v1/alerts/rules/${id}`, {});
    expect(patch.status).toBe(400);
    expect(
      (await api.call('PATCH', '/api/v1/alerts/rules/not-a-uuid', { enabled: true })).status,
    ).toBe(400);
    expect((await api.call('GET', '/api/v1/alerts/rules')).body.rules).toHaveLength(1);
    await api.call('DELETE', `/api/v1/alerts/rules/${id}`);
  });

  it('keeps a project to 100 rules, and says so', async () => {
    const before = (await api.call('GET', '/api/v1/alerts/rules')).body.rules as { id: string }[];
    const made: string[] = [];
    for (let k = before.length; k < 100; k++) {
      made.push(await api.createRule(rule(`cap-${k}`, { kind: 'loop' }, hook)));
    }
    const refused = await api.call(
      'POST',
      '/api/v1/alerts/rules',
      rule('one-more', { kind: 'loop' }, hook),
    );
    expect(refused.status).toBe(400);
    expect((refused.body.error as { message: string }).message).toMatch(
      /100 alert rules, the most it may have/,
    );
    for (const id of made) await api.call('DELETE', `/api/v1/alerts/rules/${id}`);
  });

  it('with LOOPSCOPE_WEBHOOK_ALLOW set, refuses a rule whose host is not on it', async () => {
    const alerts = server.runtime.config.alerts;
    alerts.webhookAllow = ['hooks.slack.com', '*.example.com'];
    try {
      const refused = await api.call(
        'POST',
        '/api/v1/alerts/rules',
        rule('x', { kind: 'loop' }, hook),
      );
      expect(refused.status).toBe(400);
      expect((refused.body.error as { message: string }).message).toBe(
        'webhook.url: host 127.0.0.1 is not in LOOPSCOPE_WEBHOOK_ALLOW',
      );
      const bare = { url: 'https://example.com/x', format: 'json' };
      expect(
        (await api.call('POST', '/api/v1/alerts/rules', rule('x', { kind: 'loop' }, bare))).status,
      ).toBe(400);
      const id = await api.createRule(
        rule('x', { kind: 'loop' }, { url: 'https://ci.example.com/x', format: 'json' }),
      );
      const moved = await api.call('PATCH', `/api/v1/alerts/rules/${id}`, {
        webhook: { url: hook.url },
      });
      expect(moved.status).toBe(400);
      await api.createRule(
        rule('x', { kind: 'loop' }, { url: 'https://hooks.slack.com/T/B', format: 'slack' }),
      );
    } finally {
      alerts.webhookAllow = [...TEST_WEBHOOK_ALLOW];
    }
  });

  it('refuses a webhook to an inward address unless allowed, and to this server ever', async () => {
    const alerts = server.runtime.config.alerts;
    const create = (url: string) =>
      api.call(
        'POST',
        '/api/v1/alerts/rules',
        rule('x', { kind: 'loop' }, { url, format: 'json' }),
      );
    const message = (answer: { body: Record<string, unknown> }) =>
      (answer.body.error as { message: string }).message;
    alerts.webhookAllow = null;
    try {
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://localhost:9/x',
        'http://[::1]:9/x',
        'http://169.254.169.254/latest/meta-data',
        'http://10.1.2.3/x',
        'http://[fd00::1]/x',
        'http://0.0.0.0:9/x',
      ]) {
        const refused = await create(url);
        expect(refused.status, url).toBe(400);
        expect(message(refused), url).toMatch(/inward address|this Loopscope server/);
      }
    } finally {
      alerts.webhookAllow = [...TEST_WEBHOOK_ALLOW];
    }
    // Allowed by name, loopback is open to a receiver; never to this server's own port.
    const own = new URL(server.url);
    const itself = await create(`http://127.0.0.1:${own.port}/api/ui/demo`);
    expect(itself.status).toBe(400);
    expect(message(itself)).toMatch(/reaches this Loopscope server itself/);
    expect((await create(`http://localhost:${own.port}/api/ui/demo`)).status).toBe(400);
  });
});

describe.each(TEST_DATABASE_KINDS)('run rules fire and deliver on %s', (kind) => {
  let server: TestServer;
  let receiver: Receiver;
  const api = client(() => server);
  const secret = 'a-shared-secret-of-the-receiver';
  const ids: Record<string, string> = {};
  const runs: Record<string, TestRun> = {
    fabricated: {
      traceId: trace(1),
      agent: 'coder',
      exitReason: 'goal_met',
      steps: [
        { action: 'edit', args: '{"file":"a.ts"}', state: 's1', costUsd: 0.1 },
        {
          action: 'run_tests',
          state: 's1',
          verdict: 'fail',
          verdictSource: 'environment',
          costUsd: 0.1,
        },
      ],
    },
    loop: {
      traceId: trace(2),
      agent: 'coder',
      exitReason: 'end_turn',
      steps: [1, 2, 3].map(() => ({
        action: 'restart',
        args: '{"svc":"db"}',
        state: 'down',
        costUsd: 0.5,
      })),
    },
    escalated: {
      traceId: trace(3),
      agent: 'ops',
      exitReason: 'escalated',
      steps: [{ action: 'write_bucket', state: 'x', costUsd: 0.02 }],
    },
    costly: {
      traceId: trace(4),
      agent: 'ops',
      exitReason: 'goal_met',
      steps: [{ action: 'big_model', state: 'y', costUsd: 5.25 }],
    },
    unexplained: {
      traceId: trace(5),
      agent: '<!here> & co',
      steps: [{ action: 'think', state: 'z', costUsd: 0.01 }],
    },
    healthy: {
      traceId: trace(6),
      agent: 'coder',
      exitReason: 'goal_met',
      steps: [{ action: 'edit', state: 'w', costUsd: 0.1 }],
    },
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    receiver = await startReceiver();
    const json = { url: receiver.url, format: 'json', secret };
    ids.fabricated = await api.createRule(rule('fabricated', { kind: 'fabricated_success' }, json));
    ids.loop = await api.createRule(rule('loop', { kind: 'loop', minWastedUsd: 0.4 }, json));
    ids.escalated = await api.createRule(
      rule('escalations', { kind: 'exit_category', categories: ['escalated'] }, json),
    );
    ids.costly = await api.createRule(rule('costly', { kind: 'run_cost_over', usd: 2 }, json));
    ids.unexplained = await api.createRule(
      rule('unexplained', { kind: 'unexplained_stop' }, { url: receiver.url, format: 'slack' }),
    );
    // None of these may fire: disabled, another agent, a threshold no run reaches.
    await api.createRule(rule('off', { kind: 'run_cost_over', usd: 0 }, json, { enabled: false }));
    await api.createRule(rule('other agent', { kind: 'loop' }, json, { agent: 'someone-else' }));
    await api.createRule(rule('big loops', { kind: 'loop', minWastedUsd: 100 }, json));
    for (const run of Object.values(runs)) await api.send(run);
    await receiver.waitFor(5);
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const byRun = () =>
    new Map(
      receiver.received.map((r) => {
        const body = JSON.parse(r.body) as { runId?: string; text?: string };
        return [body.runId ?? 'slack', r] as const;
      }),
    );

  it('each rule kind fires on the run that should, and on no other', async () => {
    // A moment for anything that should not have fired to show itself.
    await new Promise((r) => setTimeout(r, 500));
    const events = await api.events();
    const fired = events.map((e) => [e.ruleId, e.runId]).sort();
    expect(fired).toEqual(
      [
        [ids.fabricated, trace(1)],
        [ids.loop, trace(2)],
        [ids.escalated, trace(3)],
        [ids.costly, trace(4)],
        [ids.unexplained, trace(5)],
      ].sort(),
    );
    expect(receiver.received).toHaveLength(5);
    for (const event of events) {
      expect(event.status).toBe('delivered');
      expect(event.deliveries).toMatchObject([{ attempt: 1, httpStatus: 200, error: null }]);
    }
  });

  it('the JSON body is the contract’s, with the event id header and a signature that verifies', () => {
    const received = byRun().get(trace(2));
    expect(received).toBeDefined();
    const body = JSON.parse(received!.body) as Json;
    expect(body).toMatchObject({
      id: received!.headers['x-loopscope-event'],
      rule: { id: ids.loop, name: 'loop' },
      runId: trace(2),
      summary: expect.stringContaining('looped from step 2'),
      run: { id: trace(2), agent: 'coder', flags: { repeat: { step: 2, of: 1 } } },
      link: `${server.url}/runs/${trace(2)}?project=default`,
    });
    expect(Date.parse(body.firedAt as string)).not.toBeNaN();
    const expected = `sha256=${createHmac('sha256', secret).update(received!.body).digest('hex')}`;
    expect(received!.headers['x-loopscope-signature']).toBe(expected);
    expect(received!.headers['content-type']).toBe('application/json');
    // The Standard Webhooks signature covers the id and the attempt's time with the body: a
    // receiver refuses a replay once its tolerance has passed.
    const { 'webhook-id': id, 'webhook-timestamp': at } = received!.headers;
    expect(id).toBe(received!.headers['x-loopscope-event']);
    expect(Math.abs(Number(at) - Date.now() / 1000)).toBeLessThan(120);
    const timestamped = createHmac('sha256', secret)
      .update(`${id}.${at}.${received!.body}`)
      .digest('base64');
    expect(received!.headers['webhook-signature']).toBe(`v1,${timestamped}`);
  });

  it('the Slack body is { text } with span text escaped and no signature without a secret', () => {
    const slack = byRun().get('slack');
    expect(slack).toBeDefined();
    const body = JSON.parse(slack!.body) as Json;
    expect(Object.keys(body)).toEqual(['text']);
    expect(body.text).toContain('&lt;!here&gt; &amp; co');
    expect(body.text).not.toContain('<!here>');
    expect(body.text).toContain(
      `<${server.url}/runs/${trace(5)}?project=default|Open in Loopscope>`,
    );
    expect(slack!.headers['x-loopscope-signature']).toBeUndefined();
    expect(slack!.headers['x-loopscope-event']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("re-sending a run's spans fires nothing new", async () => {
    for (const run of Object.values(runs)) await api.send(run);
    await server.settle();
    await new Promise((r) => setTimeout(r, 500));
    expect(await api.events()).toHaveLength(5);
    expect(receiver.received).toHaveLength(5);
  });
});

describe.each(TEST_DATABASE_KINDS)('delivery that survives faults on %s', (kind) => {
  let server: TestServer | undefined;
  let receiver: Receiver | undefined;
  let database: DatabaseHandle | undefined;
  const api = client(() => server!);
  const fabricated = (n: number): TestRun => ({
    traceId: trace(100 + n),
    agent: 'coder',
    exitReason: 'goal_met',
    steps: [{ action: 'run_tests', state: 'a', verdict: 'fail', verdictSource: 'environment' }],
  });

  afterEach(async () => {
    await server?.close();
    await receiver?.close();
    await database?.close();
    server = receiver = database = undefined;
  });

  it('a receiver that answers 500 first gets the event again with the same id; the log shows both', async () => {
    receiver = await startReceiver();
    receiver.answer = (n) => (n === 0 ? 500 : 200);
    server = await startTestServer(kind);
    const ruleId = await api.createRule(
      rule('f', { kind: 'fabricated_success' }, { url: receiver.url, format: 'json' }),
    );
    await api.send(fabricated(1));
    await receiver.waitFor(2);
    const [first, second] = receiver.received;
    expect(second!.headers['x-loopscope-event']).toBe(first!.headers['x-loopscope-event']);
    expect(second!.body).toBe(first!.body);
    const [event] = await until(api.events, (e) => e[0]?.status === 'delivered');
    expect(event).toMatchObject({
      id: first!.headers['x-loopscope-event'],
      ruleId,
      runId: trace(101),
      deliveries: [
        { attempt: 1, httpStatus: 500, error: 'answered 500' },
        { attempt: 2, httpStatus: 200, error: null },
      ],
    });
    expect(receiver.received).toHaveLength(2);
  });

  it('gives up after the attempt limit and marks the event failed with its last error', async () => {
    receiver = await startReceiver();
    receiver.answer = () => 302;
    server = await startTestServer(kind, { alerts: { maxAttempts: 3 } });
    await api.createRule(
      rule('f', { kind: 'fabricated_success' }, { url: receiver.url, format: 'json' }),
    );
    await api.send(fabricated(2));
    const [event] = await until(api.events, (e) => e[0]?.status === 'failed');
    expect(event!.deliveries.map((d) => [d.attempt, d.httpStatus])).toEqual([
      [1, 302],
      [2, 302],
      [3, 302],
    ]);
    expect(event!.deliveries[2]!.error).toBe('answered 302, a redirect, which is not followed');
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(3);
  });

  it('a receiver that is down while Loopscope restarts gets the event once it is back', async () => {
    database = await createTestDatabase(kind);
    const port = await closedPort();
    const alerts = { maxAttempts: 30, baseDelayMs: 20 };
    server = await startTestServer(kind, { database, alerts });
    const alertKey = server.runtime.alertKey;
    await api.createRule(
      rule(
        'f',
        { kind: 'fabricated_success' },
        { url: `http://127.0.0.1:${port}/hook`, format: 'json', secret: 'kept-across-restarts' },
      ),
    );
    await api.send(fabricated(3));
    const [down] = await until(api.events, (e) => (e[0]?.deliveries.length ?? 0) >= 2);
    expect(down!.deliveries[0]).toMatchObject({
      httpStatus: null,
      error: 'could not connect (ECONNREFUSED)',
    });
    await server.close();
    server = undefined;
    receiver = await startReceiver(port);
    server = await startTestServer(kind, { database, alerts, alertKey });
    await receiver.waitFor(1);
    const [event] = await until(api.events, (e) => e[0]?.status === 'delivered');
    expect(event!.id).toBe(down!.id);
    const received = receiver.received[0]!;
    expect(received.headers['x-loopscope-event']).toBe(down!.id);
    expect(received.headers['x-loopscope-signature']).toBe(
      `sha256=${createHmac('sha256', 'kept-across-restarts').update(received.body).digest('hex')}`,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(1);
  });

  it('a receiver that hangs holds only its own events back: another project’s alert goes at once', async () => {
    // Project A's receiver takes connections and never answers; B's answers at once.
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const hangingPort = (hanging.address() as AddressInfo).port;
    receiver = await startReceiver();
    server = await startTestServer(kind, { alerts: { timeoutMs: 2000, maxAttempts: 3 } });
    try {
      await api.createRule(
        rule(
          'a',
          { kind: 'fabricated_success' },
          { url: `http://127.0.0.1:${hangingPort}/a`, format: 'json' },
        ),
      );
      const b = await server.newProject(`fair-b-${kind}`);
      const created = await api.call(
        'POST',
        '/api/v1/alerts/rules',
        rule('b', { kind: 'fabricated_success' }, { url: `${receiver.url}/b`, format: 'json' }),
        b.key,
      );
      expect(created.status).toBe(200);
      for (let n = 0; n < 64; n++) await api.send(fabricated(200 + n));
      await until(api.events, (e) => e.length === 64);
      const sentAt = Date.now();
      const { status } = await api.call('POST', '/v1/traces', runBody(fabricated(300)), b.key);
      expect(status).toBe(200);
      await receiver.waitFor(1, 10_000);
      // Before, deliveries went 16 at a time and each batch waited for its slowest: B's one alert
      // waited a 2 s timeout for every batch of A's ahead of it (7.5 s here; about 0.3 s now).
      expect(Date.now() - sentAt).toBeLessThan(3000);
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  });

  it('a server that cannot open a rule’s secret leaves its event, untried, to one that can', async () => {
    database = await createTestDatabase(kind);
    receiver = await startReceiver();
    const alerts = { baseDelayMs: 20 };
    server = await startTestServer(kind, { database, alerts });
    const rightKey = server.runtime.alertKey;
    await api.createRule(
      rule(
        'f',
        { kind: 'fabricated_success' },
        { url: `${receiver.url}/hook`, format: 'json', secret: 'sealed-under-the-right-key' },
      ),
    );
    await server.close();
    server = undefined;
    // A server with another key fires the event but cannot sign it: it logs no attempt.
    server = await startTestServer(kind, { database, alerts, alertKey: newAlertKey() });
    await api.send(fabricated(4));
    const [fired] = await until(api.events, (e) => e.length === 1);
    await new Promise((r) => setTimeout(r, 1000));
    const [waiting] = await api.events();
    expect(waiting).toMatchObject({ id: fired!.id, status: 'pending', deliveries: [] });
    expect(receiver.received).toHaveLength(0);
    await server.close();
    server = undefined;
    // The one with the right key delivers it.
    server = await startTestServer(kind, { database, alerts, alertKey: rightKey });
    await receiver.waitFor(1);
    const [event] = await until(api.events, (e) => e[0]?.status === 'delivered');
    expect(event!.deliveries).toHaveLength(1);
    const received = receiver.received[0]!;
    expect(received.headers['x-loopscope-signature']).toBe(
      `sha256=${createHmac('sha256', 'sealed-under-the-right-key').update(received.body).digest('hex')}`,
    );
  });
});

describe.each(TEST_DATABASE_KINDS)('window rules on a schedule on %s', (kind) => {
  let server: TestServer;
  let receiver: Receiver;
  const api = client(() => server);
  const HOUR = 3600_000;
  const DAY = 24 * HOUR;

  beforeAll(async () => {
    server = await startTestServer(kind);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  it('a share that rose and a cost per verified unit that rose fire once per window; the rest do not', async () => {
    const hook = { url: receiver.url, format: 'json' };
    const share = (points: number, category: string) => ({
      kind: 'exit_share_rise',
      category,
      window: '1d',
      points,
    });
    const cost = (percent: number) => ({
      kind: 'cost_per_verified_unit_rise',
      window: '7d',
      percent,
    });
    const shareRule = await api.createRule(rule('no progress up', share(20, 'no_progress'), hook));
    await api.createRule(rule('escalations up', share(5, 'escalated'), hook));
    await api.createRule(rule('no progress way up', share(60, 'no_progress'), hook));
    await api.createRule(rule('only agent x', share(1, 'no_progress'), hook, { agent: 'x' }));
    const costRule = await api.createRule(rule('unit cost up', cost(50), hook));
    await api.createRule(rule('unit cost way up', cost(500), hook));

    // The rules are judged at the last Thursday noon (UTC): the day window's runs, 9 to 30 hours
    // before it, stay in its own ISO week and never add their spend to the weekly rule's "last
    // week" (judged at the real time on a Monday, they did: $3.83, not $3.75).
    const now = lastThursdayNoonMs(Date.now());
    const step = (costUsd: number) => [{ action: 'work', state: 's', costUsd }];
    let n = 200;
    const send = (startMs: number, exitReason: string, extra: Partial<TestRun> = {}) =>
      api.send({
        traceId: trace(n++),
        agent: 'coder',
        exitReason,
        steps: step(0.01),
        startMs,
        ...extra,
      });
    // The day before the last one: four goal_met runs; the last day: two of four no_progress.
    for (let k = 0; k < 4; k++) await send(now - 30 * HOUR - k * 60_000, 'goal_met');
    for (let k = 0; k < 2; k++) await send(now - 10 * HOUR - k * 60_000, 'goal_met');
    for (let k = 0; k < 2; k++) await send(now - 9 * HOUR - k * 60_000, 'no_progress');
    // Cost per verified unit: $1 the week before last, $3 last week (ISO weeks, UTC).
    const today = Math.floor(now / DAY) * DAY;
    const monday = today - ((Math.floor(today / DAY) + 3) % 7) * DAY;
    await send(monday - 14 * DAY + HOUR, 'goal_met', { steps: step(1.25), verified: true });
    await send(monday - 7 * DAY + HOUR, 'goal_met', { steps: step(3.75), verified: true });
    await server.settle();

    const { judgeWindowRules } = await import('@/server/window-alerts');
    expect(await judgeWindowRules(server.database.db, new Date(now))).toBe(2);
    expect(await judgeWindowRules(server.database.db, new Date(now))).toBe(0);
    await receiver.waitFor(2);
    const events = await until(api.events, (e) => e.every((x) => x.status === 'delivered'));
    expect(events.map((e) => e.ruleId).sort()).toEqual([shareRule, costRule].sort());
    const shareEvent = events.find((e) => e.ruleId === shareRule)!;
    expect(shareEvent.runId).toBeNull();
    expect(shareEvent.summary).toBe(
      'no progress up: no_progress was 50% of 4 runs over the last 1d, up 50 points from 0%',
    );
    expect(events.find((e) => e.ruleId === costRule)!.summary).toBe(
      'unit cost up: cost per verified unit was $3.75 last week, up 200% from $1.25',
    );
    const body = JSON.parse(receiver.received.find((r) => r.body.includes(shareRule))!.body) as {
      runId: null;
      link: string;
      run?: unknown;
    };
    expect(body.runId).toBeNull();
    expect(body.run).toBeUndefined();
    expect(body.link).toMatch(
      new RegExp(`^${server.url}/\\?project=default&from=[^&]+Z&to=[^&]+Z$`.replace(/\//g, '\\/')),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(2);
  });
});

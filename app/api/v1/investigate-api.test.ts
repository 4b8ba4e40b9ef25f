// Sessions, tags and who verified (RunSummary's second-wave fields), read end to end: real OTel
// exporters into a real server on PGlite and on Postgres, answered by the read API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { createSender } from '@/e2e/support/otel';
import { emitRun } from '@/e2e/support/scenarios';
import type { RunSpec } from '@/e2e/support/scenarios';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { RunSummary } from '@/lib/api-types';

describe.each(TEST_DATABASE_KINDS)('sessions, tags and verification source on %s', (kind) => {
  let server: TestServer;
  const ids: Record<string, string> = {};
  const base = Date.now() - 3600_000;

  const call = async <T>(
    path: string,
    init: RequestInit = {},
    key = server.key,
  ): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };
  const run = async (id: string) =>
    (await call<{ run: RunSummary }>(`/api/v1/runs/${id}`)).body.run;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const sender = createSender({ url: server.url, key: server.key });
    const at = (k: number) => base + k * 60_000;
    const specs: Record<string, RunSpec> = {
      sessionLoop: {
        goal: 'Answer the billing question',
        agent: 'support',
        startMs: at(0),
        attributes: { 'loop.session.id': 'conv-42', 'loop.tags': ['prod', 'billing'] },
        steps: [{ action: 'lookup_invoice', args: { id: 7 }, costUsd: 0.02 }],
        end: { termination: { kind: 'goal_met' } },
      },
      sessionFallback: {
        goal: 'Refund the duplicate charge',
        agent: 'support',
        startMs: at(1),
        attributes: { 'session.id': 'conv-42', 'tag.tags': 'prod, refunds' },
        steps: [
          {
            action: 'refund',
            args: { charge: 'ch_1' },
            verdict: 'pass',
            verdictSource: 'environment',
            costUsd: 0.05,
          },
        ],
        end: { termination: { kind: 'goal_met' } },
      },
      conversation: {
        goal: 'Summarise the thread',
        agent: 'writer',
        startMs: at(2),
        attributes: { 'gen_ai.conversation.id': 'thread-9' },
        steps: [{ action: 'summarise', args: {}, costUsd: 0.01 }],
        end: { termination: { kind: 'goal_met' }, verified: true },
      },
      alone: {
        goal: 'Tidy the backlog',
        agent: 'writer',
        startMs: at(3),
        steps: [{ action: 'tidy', args: {}, verdict: 'pass', verdictSource: 'self' }],
        end: { termination: { kind: 'goal_met' } },
      },
    };
    for (const [name, spec] of Object.entries(specs)) ids[name] = emitRun(sender.tracer, spec);
    await sender.shutdown();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reads the session id from loop.session.id, session.id or gen_ai.conversation.id', async () => {
    expect((await run(ids.sessionLoop!)).sessionId).toBe('conv-42');
    expect((await run(ids.sessionFallback!)).sessionId).toBe('conv-42');
    expect((await run(ids.conversation!)).sessionId).toBe('thread-9');
    expect((await run(ids.alone!)).sessionId).toBeNull();
  });

  it('reads tags from a string array or comma-separated text, and none as []', async () => {
    expect((await run(ids.sessionLoop!)).tags).toEqual(['prod', 'billing']);
    expect((await run(ids.sessionFallback!)).tags).toEqual(['prod', 'refunds']);
    expect((await run(ids.alone!)).tags).toEqual([]);
  });

  it('says who settled verification: environment, review, or no one', async () => {
    expect(await run(ids.sessionFallback!)).toMatchObject({
      verification: 'verified',
      verificationSource: 'environment',
    });
    expect(await run(ids.conversation!)).toMatchObject({
      verification: 'verified',
      verificationSource: 'review',
    });
    expect(await run(ids.alone!)).toMatchObject({
      verification: 'unverified',
      verificationSource: null,
    });
  });

  it('every list carries the three fields', async () => {
    const { body } = await call<{ runs: RunSummary[] }>('/api/v1/runs?limit=10');
    const listed = body.runs.find((r) => r.id === ids.sessionLoop);
    expect(listed).toMatchObject({
      sessionId: 'conv-42',
      tags: ['prod', 'billing'],
      verificationSource: null,
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '@/db/projects';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import { keyPrefix } from '@/lib/door/api-key';

const TRACE = 'abcdef00000000000000000000000001';

function body(agent: string, extra: Record<string, string>) {
  const attributes = Object.entries({
    'loop.agent': agent,
    'loop.exit.reason': 'goal_met',
    ...extra,
  }).map(([key, value]) => ({
    key,
    value: { stringValue: value },
  }));
  return JSON.stringify({
    resourceSpans: [
      {
        resource: {
          attributes: [{ key: 'project_id', value: { stringValue: extra.project_id ?? '' } }],
        },
        scopeSpans: [
          {
            spans: [
              {
                traceId: TRACE,
                spanId: '00000000000000a1',
                name: 'agent',
                startTimeUnixNano: '1700000000000000000',
                endTimeUnixNano: '1700000001000000000',
                attributes,
              },
            ],
          },
        ],
      },
    ],
  });
}

describe.each(TEST_DATABASE_KINDS)('project isolation on %s', (kind) => {
  let server: TestServer;
  let other: { projectId: string; key: string };
  const call = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });

  beforeAll(async () => {
    server = await startTestServer(kind);
    other = await server.newProject('other');
  });
  afterAll(() => server?.close());

  it('the same trace id in two projects is two runs, and no attribute redirects a write', async () => {
    const redirect = {
      project_id: other.projectId,
      'loop.project': 'other',
      'project.id': other.projectId,
    };
    expect(
      (await call('/v1/traces', server.key, { method: 'POST', body: body('mine', redirect) }))
        .status,
    ).toBe(200);
    expect(
      (await call('/v1/traces', other.key, { method: 'POST', body: body('theirs', {}) })).status,
    ).toBe(200);
    const mine = (await (await call(`/api/v1/runs/${TRACE}`, server.key)).json()) as {
      run: { agent: string };
    };
    const theirs = (await (await call(`/api/v1/runs/${TRACE}`, other.key)).json()) as {
      run: { agent: string };
    };
    expect(mine.run.agent).toBe('mine');
    expect(theirs.run.agent).toBe('theirs');
  });

  it('every read route answers 404 or an empty list for another project’s run', async () => {
    const third = await server.newProject(`third-${kind}`);
    expect((await call(`/api/v1/runs/${TRACE}`, third.key)).status).toBe(404);
    expect((await call(`/api/v1/runs/${TRACE}/steps`, third.key)).status).toBe(404);
    expect(
      (
        await call('/api/v1/guard', third.key, {
          method: 'POST',
          body: JSON.stringify({ runId: TRACE }),
        })
      ).status,
    ).toBe(404);
    expect(
      ((await (await call('/api/v1/runs', third.key)).json()) as { runs: unknown[] }).runs,
    ).toEqual([]);
    expect(
      ((await (await call('/api/v1/exit-reasons', third.key)).json()) as { groups: unknown[] })
        .groups,
    ).toEqual([]);
  });

  it('a revoked key stops working at once, for ingest and reads', async () => {
    const temp = await server.newProject(`temp-${kind}`);
    expect((await call('/api/v1/runs', temp.key)).status).toBe(200);
    expect(await revokeApiKey(server.database.db, keyPrefix(temp.key))).toBe(1);
    expect((await call('/api/v1/runs', temp.key)).status).toBe(401);
    expect(
      (await call('/v1/traces', temp.key, { method: 'POST', body: body('x', {}) })).status,
    ).toBe(401);
  });
});

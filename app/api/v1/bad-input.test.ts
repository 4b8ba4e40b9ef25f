// Input that cannot be stored or queried (NUL, lone surrogates, dates Postgres cannot hold, odd
// header bytes) gets a 400 or 401 that names the parameter, on every route: never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';

describe.each(TEST_DATABASE_KINDS)('bad input on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    server.runtime.adminToken = 'the-admin-token-of-this-test-0123456789';
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    return {
      status: response.status,
      body: (await response.json()) as { error?: { message: string } },
    };
  };

  it.each([
    ['/api/v1/runs?agent=%00', /^agent: contains a NUL character/],
    ['/api/v1/runs?variant=a%00b', /^variant: contains a NUL character/],
    ['/api/v1/runs?cursor=%00', /^cursor: contains a NUL character/],
    ['/api/v1/exit-reasons?agent=%00', /^agent: contains a NUL character/],
    ['/api/v1/runs?from=0000-01-01', /^from: must be a date from 1970-01-01 to 9999-12-31/],
    ['/api/v1/exit-reasons?to=0000-01-01T00:00:00Z', /^to: must be a date from 1970/],
    ['/api/v1/reports/weekly?from=0000-01-01', /^from: must be a date/],
    ['/api/v1/runs/%00', /^runId: contains a NUL character/],
    ['/api/v1/runs/a%00b/steps', /^runId: contains a NUL character/],
  ])('GET %s → 400 naming the parameter', async (path, message) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.error?.message).toMatch(message);
  });

  it.each([
    ['a NUL', JSON.stringify({ runId: 'run\u0000x' }), /^runId: contains a NUL character/],
    ['a lone surrogate', '{"runId":"run-\\ud800"}', /^runId: contains a lone surrogate/],
  ])('the guard with %s in runId → 400', async (_, body, message) => {
    const response = await fetch(`${server.url}/api/v1/guard`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      message,
    );
  });

  it('an admin header with a non-ASCII byte is a wrong token (401), not a 500', async () => {
    const { request } = await import('node:http');
    const { hostname, port } = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: hostname,
          port,
          path: '/api/admin/keys',
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            // One byte above 0x7f, as a raw header carries it (latin1).
            'x-loopscope-admin': Buffer.from(
              'the-admin-token-of-this-test-012345678\xe9',
              'latin1',
            ).toString('latin1'),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify({ action: 'list' }));
    });
    expect(status).toBe(401);
  });

  it('a key command with a NUL in the project name → 400', async () => {
    const response = await fetch(`${server.url}/api/admin/keys`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-loopscope-admin': 'the-admin-token-of-this-test-0123456789',
      },
      body: JSON.stringify({ action: 'create', project: 'a\u0000b' }),
    });
    expect(response.status).toBe(400);
  });
});

// The empty state's "Load sample runs": the route sends the samples through this server's own
// /v1/traces under a key it revokes after, answers with what it loaded, and adds nothing twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiKeys } from '@/db/projects';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { ExitReasonGroup } from '@/lib/api-types';
import type { DemoSummary } from '@/samples/demo';
import * as route from './route';

describe('POST /api/ui/demo', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    // The route sends to the address this server listens on.
    server.runtime.config = { ...server.runtime.config, port: Number(new URL(server.url).port) };
  });
  afterAll(async () => {
    await server?.close();
  });

  // What a page load hands the browser: the route serves the dashboard's pages only.
  const session = () => ({ cookie: server.openDoorCookie() });
  const load = async () => {
    const response = await fetch(`${server.url}/api/ui/demo`, {
      method: 'POST',
      headers: session(),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { loaded: DemoSummary }).loaded;
  };
  const groups = async () => {
    const response = await fetch(
      `${server.url}/api/v1/exit-reasons?from=${new Date(Date.now() - 60 * 86_400_000).toISOString()}`,
      { headers: { authorization: `Bearer ${server.key}` } },
    );
    return ((await response.json()) as { groups: ExitReasonGroup[] }).groups;
  };

  it('loads the sample runs into the default project, and a second load (even a concurrent one) adds nothing', async () => {
    const [loaded, concurrent] = await Promise.all([load(), load()]);
    expect(concurrent).toEqual(loaded);
    expect(loaded).toMatchObject({ runs: 78, alreadyLoaded: false });
    expect(loaded.spans).toBeGreaterThan(1000);
    const after = await groups();
    expect(after.reduce((n, g) => n + g.runs, 0)).toBe(78);

    expect(await load()).toEqual({ ...loaded, alreadyLoaded: true });
    expect(await groups()).toEqual(after);
  });

  it('loads into the project the body names, and refuses one that does not exist', async () => {
    const other = await server.newProject('staging');
    const post = (body: BodyInit, type: string) =>
      fetch(`${server.url}/api/ui/demo`, {
        method: 'POST',
        headers: { 'content-type': type, ...session() },
        body,
      });
    const form = new URLSearchParams({ project: 'staging' });
    const loaded = await post(form.toString(), 'application/x-www-form-urlencoded');
    expect(loaded.status).toBe(200);
    expect(((await loaded.json()) as { loaded: DemoSummary }).loaded.alreadyLoaded).toBe(false);
    const runs = await fetch(`${server.url}/api/v1/runs?agent=ops-agent&from=2000-01-01`, {
      headers: { authorization: `Bearer ${other.key}` },
    });
    expect(((await runs.json()) as { runs: unknown[] }).runs).toHaveLength(12);

    const missing = await post(JSON.stringify({ project: 'nope' }), 'application/json');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { code: 'not_found', message: 'no project "nope"' },
    });
    expect((await post('{', 'application/json')).status).toBe(400);
  });

  it('refuses a request that holds no dashboard session (a webhook aimed inward), changing nothing', async () => {
    const before = await groups();
    const refused = await fetch(`${server.url}/api/ui/demo`, { method: 'POST' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: {
        code: 'unauthorized',
        message: 'open the dashboard first: this route serves its pages',
      },
    });
    expect(await groups()).toEqual(before);
  });

  it('keeps no key alive: each load revokes the key it made', async () => {
    const keys = (await listApiKeys(server.database.db)).filter(
      (k) => k.name === 'sample runs (dashboard)',
    );
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key.revokedAt).not.toBeNull();
  });

  it('answers POST only', () => {
    expect(Object.keys(route).sort()).toEqual(['POST', 'dynamic']);
  });
});

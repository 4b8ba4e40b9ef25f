import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, listApiKeys, revokeApiKey } from '@/db/projects';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import { readPriceFile } from '@/lib/settings';
import { PriceTable } from '@/trajectory/pricing';
import { dashboardUrl, localOrigin, resolveDemoTarget, runDemoCommand } from './demo-command';

const local = { host: '127.0.0.1', port: 3000 };
const prices = new PriceTable(readPriceFile('prices.json'));

describe('where npm run demo sends, and with which key', () => {
  it('defaults to the local server, reachable even when it listens on every address', () => {
    expect(resolveDemoTarget({}, local)).toEqual({
      origin: 'http://127.0.0.1:3000',
      tracesUrl: 'http://127.0.0.1:3000/v1/traces',
      headers: {},
      fromEnvironment: false,
      hasKey: false,
    });
    expect(localOrigin({ host: '0.0.0.0', port: 4000 })).toBe('http://127.0.0.1:4000');
    expect(localOrigin({ host: '::', port: 4000 })).toBe('http://[::1]:4000');
  });

  it('names the dashboard page that shows the runs it sent', () => {
    const covered = { from: '2026-10-20T08:00:00.000Z', to: '2026-11-30T17:00:00.000Z' };
    expect(dashboardUrl('http://127.0.0.1:4000', 'default', covered)).toBe(
      'http://127.0.0.1:4000/?from=2026-10-20&to=2026-11-30',
    );
    expect(dashboardUrl('http://127.0.0.1:4000', 'team a', covered)).toBe(
      'http://127.0.0.1:4000/?project=team+a&from=2026-10-20&to=2026-11-30',
    );
  });

  it('honours the OTLP endpoint and header variables as the OTel SDK reads them', () => {
    expect(
      resolveDemoTarget(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'https://loopscope.example.com/',
          OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20lsk_abc,x-team=ops',
        },
        local,
      ),
    ).toEqual({
      origin: 'https://loopscope.example.com',
      tracesUrl: 'https://loopscope.example.com/v1/traces',
      headers: { Authorization: 'Bearer lsk_abc', 'x-team': 'ops' },
      fromEnvironment: true,
      hasKey: true,
    });
    const traces = resolveDemoTarget(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://ignored:1',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://10.0.0.5:3000/v1/traces',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-api-key=lsk_def',
      },
      local,
    );
    expect(traces).toMatchObject({
      origin: 'http://10.0.0.5:3000',
      tracesUrl: 'http://10.0.0.5:3000/v1/traces',
      headers: { 'x-api-key': 'lsk_def' },
      hasKey: true,
    });
  });
});

describe('runDemoCommand', () => {
  let server: TestServer;
  const logs: string[] = [];
  const port = () => Number(new URL(server.url).port);

  beforeAll(async () => {
    server = await startTestServer('pglite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('makes itself a key for the local server, loads the samples and revokes the key', async () => {
    const summary = await runDemoCommand({
      env: {},
      local: { host: '127.0.0.1', port: port() },
      project: 'default',
      prices,
      keys: {
        create: async () => createApiKey(server.database.db, server.projectId, { name: 'demo' }),
        revoke: async (id) => {
          await revokeApiKey(server.database.db, id);
        },
      },
      log: (message) => logs.push(message),
    });
    expect(summary).toMatchObject({ runs: 78, alreadyLoaded: false });
    expect(logs.at(-2)).toMatch(/^Loaded 78 sample runs/);
    // The last line is the page to open: this server's port, the days the runs cover.
    const days = `from=${summary.from.slice(0, 10)}&to=${summary.to.slice(0, 10)}`;
    expect(logs.at(-1)).toBe(`Open http://127.0.0.1:${port()}/?${days} to see them.`);
    // The API reads `to` as an instant; the page reads it as the last day included.
    const from = summary.from.slice(0, 10);
    const page = await fetch(`http://127.0.0.1:${port()}/api/v1/runs?from=${from}&limit=500`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(((await page.json()) as { runs: unknown[] }).runs).toHaveLength(78);
    const demoKeys = (await listApiKeys(server.database.db)).filter((k) => k.name === 'demo');
    expect(demoKeys.map((k) => k.revokedAt !== null)).toEqual([true]);
  });

  it('uses the key of OTEL_EXPORTER_OTLP_HEADERS, and says when a second load changed nothing', async () => {
    const refuse = async () => {
      throw new Error('no key may be made for a target from the environment');
    };
    const summary = await runDemoCommand({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: server.url,
        OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${server.key}`,
      },
      local,
      project: 'default',
      prices,
      keys: { create: refuse, revoke: refuse },
      log: (message) => logs.push(message),
    });
    expect(summary.alreadyLoaded).toBe(true);
    expect(logs.at(-2)).toMatch(/loaded already; sent again, nothing changed/);
    expect(logs.at(-1)).toMatch(/^Open http:\/\/127\.0\.0\.1:\d+\/\?from=.*to see them\.$/);
  });

  it('names what is missing: a key for a remote endpoint, a server to send to', async () => {
    const keys = { create: async () => ({ id: '', key: '' }), revoke: async () => {} };
    await expect(
      runDemoCommand({
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: server.url },
        local,
        project: 'default',
        prices,
        keys,
        log: () => {},
      }),
    ).rejects.toThrow(/OTEL_EXPORTER_OTLP_HEADERS/);
    await expect(
      runDemoCommand({
        env: {},
        local: { host: '127.0.0.1', port: 9 },
        project: 'default',
        prices,
        keys,
        log: () => {},
      }),
    ).rejects.toThrow(/No Loopscope ready at http:\/\/127.0.0.1:9.*npm start/);
  });
});

// The app's real route handlers behind a plain node http server, on a fresh database: the HTTP
// surface as exporters and harnesses see it, without a Next build, for integration tests.
import { RecentKeys } from '../../ingest/recent-keys';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createApiKey, ensureProject } from '../../db/projects';
import { createTestDatabase } from '../../db/test-database';
import type { TestDatabaseKind } from '../../db/test-database';
import type { DatabaseHandle } from '../../db/client';
import { admissionLimits } from '../../ingest/admission';
import type { AdmissionLimits } from '../../ingest/admission';
import { configureDoor, openDoorCookie } from '../../lib/door/dashboard-door';
import { createSessionToken, openDoorKey } from '../../lib/door/dashboard-session';
import { loopSettings } from '../../lib/settings';
import type { LoopSettings } from '../../lib/settings';
import { readServerConfig } from '../../server/config';
import {
  createAdmission,
  createSpool,
  createAlertSender,
  createDeriver,
  deriveContext,
  otlpEndpointDeps,
  setRuntime,
} from '../../server/runtime';
import type { AlertConfig } from '../../server/config';
import { newAlertKey } from '../../lib/alerts/secret-box';
import { isOtlpExport, serveOtlpExport } from '../../server/ingest-fast-path';
import { settleRuns } from '../../derive/settle-runs';
import type { Runtime } from '../../server/runtime';
import { startSpoolWorkers } from '../../server/spool-workers';
import { PriceTable } from '../../trajectory/pricing';
import type { ModelPrice } from '../../trajectory/pricing';
import { keepTimePartitions } from '../../db/write/time-partitions';

type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;
interface Route {
  pattern: RegExp;
  module: string;
}

const APP = fileURLToPath(new URL('../../app', import.meta.url));

/**
 * The app's own route handlers, found as Next finds them: every `route.ts` under app/, its path
 * from the folders (`[param]` a segment, `(group)` none). No second route table to drift.
 */
function discoverRoutes(): Route[] {
  const routes: { route: Route; dynamic: number }[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        const name = entry.name;
        if (name.startsWith('_') || name === 'node_modules') continue;
        walk(path.join(dir, name), /^\(.*\)$/.test(name) ? segments : [...segments, name]);
      } else if (entry.name === 'route.ts') {
        const source = segments
          .map((seg) => {
            const param = /^\[(\w+)\]$/.exec(seg)?.[1];
            return param ? `(?<${param}>[^/]+)` : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          })
          .join('/');
        routes.push({
          route: { pattern: new RegExp(`^/${source}$`), module: path.join(dir, entry.name) },
          dynamic: segments.filter((seg) => seg.startsWith('[')).length,
        });
      }
    }
  };
  walk(APP, []);
  // A fixed segment wins over a parameter at the same place, as in Next.
  return routes.sort((a, b) => a.dynamic - b.dynamic).map((r) => r.route);
}

const ROUTES = discoverRoutes();

export interface TestServer {
  url: string;
  key: string;
  projectId: string;
  database: DatabaseHandle;
  runtime: Runtime;
  /**
   * Stores every spooled request and derives the project's marked runs now, for tests that read
   * the database directly.
   */
  settle(projectId?: string): Promise<void>;
  /** Resolves once every request answered 200 has its spans stored (the spool is empty). */
  stored(): Promise<void>;
  /** A `Cookie` value with the session a dashboard page hands out (no password set). */
  openDoorCookie(): string;
  /** Another project with its own key, for isolation checks. */
  newProject(name: string): Promise<{ projectId: string; key: string }>;
  close(): Promise<void>;
}

/** LOOPSCOPE_WEBHOOK_ALLOW in the tests: their receivers on this machine. */
export const TEST_WEBHOOK_ALLOW = ['127.0.0.1', 'localhost'] as const;

export const TEST_PRICES: ModelPrice[] = [
  {
    model: 'gpt-4o',
    inputPerMTok: 2.5,
    outputPerMTok: 10,
    cacheReadPerMTok: 1.25,
    checkedAt: '2025-06-01',
  },
  {
    model: 'claude-sonnet-4',
    inputPerMTok: 3,
    outputPerMTok: 15,
    cacheReadPerMTok: 0.3,
    checkedAt: '2025-06-01',
  },
];

export async function startTestServer(
  kind: TestDatabaseKind,
  options: {
    maxBodyBytes?: number;
    ingestConcurrency?: number;
    ingestQueue?: number;
    ingest?: Partial<Omit<AdmissionLimits, 'concurrency' | 'queue'>>;
    bodyTimeoutMs?: number;
    bodyMinBytesPerSecond?: number;
    /** What `LOOPSCOPE_CONFIG` would give (per-agent thresholds, pollingTools, ignoreArgs). */
    settings?: LoopSettings;
    /** Alert settings over quick test ones (retries after 50 ms, 2 s timeout). */
    alerts?: Partial<AlertConfig>;
    /** An existing database (a restart of the server on it); it stays open at close. */
    database?: DatabaseHandle;
    /** The alert key (a restart keeps it); a new one by default. */
    alertKey?: Buffer;
  } = {},
): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase(kind));
  // As the real server does at start (server/boot.ts): this window's weekly partitions.
  await keepTimePartitions(database.db);
  const defaults = readServerConfig({});
  const config = {
    ...defaults,
    maxBodyBytes: options.maxBodyBytes ?? 20 * 1024 * 1024,
    bodyTimeoutMs: options.bodyTimeoutMs ?? defaults.bodyTimeoutMs,
    bodyMinBytesPerSecond: options.bodyMinBytesPerSecond ?? defaults.bodyMinBytesPerSecond,
    ingest: admissionLimits(
      options.ingestConcurrency ?? 4,
      options.ingestQueue ?? 64,
      options.ingest,
    ),
    alerts: {
      ...defaults.alerts,
      timeoutMs: 2000,
      maxAttempts: 5,
      baseDelayMs: 50,
      // The tests' receivers listen on loopback, which a webhook reaches only when allowed.
      webhookAllow: [...TEST_WEBHOOK_ALLOW],
      ...options.alerts,
    },
  };
  const alertKey = options.alertKey ?? newAlertKey();
  const runtime: Runtime = {
    config,
    status: 'ready',
    handle: database,
    lastError: null,
    prices: new PriceTable(TEST_PRICES),
    settings: options.settings ?? loopSettings(),
    admission: createAdmission(config),
    spool: createSpool(config),
    spoolWorkers: null,
    hold: null,
    holdMover: null,
    recentKeys: new RecentKeys(),
    readReplica: null,
    deriver: createDeriver(() => runtime),
    alertKey,
    alertSender: createAlertSender(() => runtime, alertKey, config.alerts),
    adminToken: null,
    log: () => {},
  };
  setRuntime(runtime);
  runtime.deriver.start(200);
  runtime.spoolWorkers = await startSpoolWorkers(runtime, database);
  runtime.alertSender.start(100);
  const newProject = async (name: string) => {
    const projectId = await ensureProject(database.db, name);
    const { key } = await createApiKey(database.db, projectId);
    return { projectId, key };
  };
  const main = await newProject('default');
  const settle = async (projectId = main.projectId) => {
    await runtime.spoolWorkers?.workers.drained();
    return settleRuns(database.db, deriveContext(runtime), projectId, { limit: 100_000 });
  };
  const server = createServer((req, res) => {
    dispatch(req, res).catch((error: unknown) => {
      res.writeHead(599).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  runtime.config = { ...config, port };
  // The door answers to the address this server listens on, as the real server's does.
  configureDoor({ host: '127.0.0.1', port, password: undefined, publicUrl: null });
  return {
    url,
    ...main,
    database,
    runtime,
    newProject,
    settle,
    openDoorCookie: () =>
      `${openDoorCookie({ host: '127.0.0.1', port, password: undefined, publicUrl: null })}=${createSessionToken(openDoorKey())}`,
    stored: () => runtime.spoolWorkers?.workers.drained() ?? Promise.resolve(),
    close: async () => {
      await runtime.spoolWorkers?.stop();
      runtime.deriver.stop();
      runtime.alertSender.stop();
      await runtime.deriver.idle();
      await runtime.alertSender.idle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.database) await database.close();
    },
  };
}

async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
  // As the real server does (server/start.ts): ingest before any router.
  if (isOtlpExport(req)) return serveOtlpExport(req, res, otlpEndpointDeps);
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const route = ROUTES.find((r) => r.pattern.test(url.pathname));
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  const handler = ((await import(route.module)) as Record<string, Handler | undefined>)[
    req.method ?? 'GET'
  ];
  if (!handler) {
    res.writeHead(405).end();
    return;
  }
  const groups = url.pathname.match(route.pattern)?.groups ?? {};
  const params = Object.fromEntries(
    Object.entries(groups).map(([k, v]) => [k, decodeURIComponent(v)]),
  );
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: 'half',
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve(params) });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

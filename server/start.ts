// The Loopscope server: Next.js (dashboard, read API, /v1/traces) in one process with the
// database it owns. PGlite is opened before listening, so a locked data folder fails at once.
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import next from 'next';
import { readServerConfig } from './config';
import type { ServerConfig } from './config';
import {
  connectDatabase,
  createRuntime,
  startIdleSweeper,
  startPartitionUpkeep,
  startPatternWindowUpkeep,
  startPgliteVacuum,
  startRetentionSweeper,
} from './boot';
import { listenGrpc } from './grpc-server';
import type { GrpcListener } from './grpc-server';
import { otlpEndpointDeps } from './runtime';
import { printFirstKey } from './banner';
import { startWindowAlerts } from './window-alerts';
import { revokedSessionsFile } from './revoked-sessions-file';
import { configureDoor } from '../lib/door/dashboard-door';
import { checkSessionRevocationsOf } from '../lib/door/dashboard-session';
import { isDashboardPath, pathProblem } from '../lib/filters';
import { CLIENT_ADDRESS_HEADER } from '../lib/door/login-throttle';
import { isOtlpExport, serveOtlpExport } from './ingest-fast-path';

export async function startServer(root: string, options: { dev: boolean }): Promise<void> {
  const config = readServerConfig(process.env, root);
  const log = (message: string) => console.log(`[loopscope] ${message}`);
  const runtime = createRuntime(config, log);
  const origin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  // Bound first, so that the banner names gRPC only where it does listen.
  const grpc = await listenGrpcIfFree(config, log);
  const grpcAddress =
    grpc === null
      ? null
      : `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${grpc.port}`;
  const connecting = connectDatabase(runtime, (key) => printFirstKey(origin, key, grpcAddress));
  if (!config.databaseUrl) await connecting;
  else connecting.catch(fail);

  const app = next({ dev: options.dev, dir: root, hostname: config.host, port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  // Node's own limit on receiving a whole request (300 s by default) backs the ingest body
  // deadline for every route: a request trickling its body cannot hold a connection for long.
  const requestTimeout = Math.max(30_000, config.bodyTimeoutMs + 15_000);
  const timeouts = { requestTimeout, headersTimeout: Math.min(60_000, requestTimeout) };
  const server = createServer(timeouts, (req, res) => {
    if (isOtlpExport(req)) {
      serveOtlpExport(req, res, otlpEndpointDeps).catch((error: unknown) => {
        log(`ingest request failed: ${(error as Error).message}`);
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    // The address a login guess came from, from the socket: whatever the client sent is replaced.
    req.headers[CLIENT_ADDRESS_HEADER] = req.socket.remoteAddress ?? 'unknown';
    // A path that does not decode (`/runs/%ED%A0%80`) would fail inside Next's router as a 500.
    const problem = pathProblem(req.url ?? '/');
    if (problem) return refuse(res, 400, 'bad_request', problem);
    // Server actions live on dashboard pages, behind the proxy's checks. An action header on a
    // path the proxy does not cover (`/api/v1/x`, `/favicon.ico`) is a probe: Next would refuse
    // it deep inside, with a 500 and a log line each time.
    if (req.headers['next-action'] !== undefined && !isDashboardPath(req.url ?? '/')) {
      return refuse(res, 403, 'forbidden', 'a server action is answered on dashboard pages only');
    }
    handle(req, res).catch((error: unknown) => {
      log(`request failed: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // PORT=0 picks a free port: from here on the runtime and the door know the real one.
  runtime.config = { ...config, port };
  configureDoor({
    host: config.host,
    port,
    password: config.dashboardPassword ?? undefined,
    publicUrl: config.publicUrl,
  });
  if (config.dashboardPassword !== null) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    checkSessionRevocationsOf(revokedSessionsFile(path.join(config.dataDir, 'revoked-sessions')));
  }
  if (!config.databaseUrl) {
    writeFileSync(
      path.join(config.dataDir, 'server.json'),
      JSON.stringify({ pid: process.pid, host: config.host, port }),
    );
  }
  log(`Listening on http://${config.host}:${port} (${options.dev ? 'development' : 'production'})`);
  startIdleSweeper(runtime);
  startPartitionUpkeep(runtime);
  startPatternWindowUpkeep(runtime);
  startPgliteVacuum(runtime);
  if (config.retentionSweepMs !== null) startRetentionSweeper(runtime, config.retentionSweepMs);
  startWindowAlerts(() => (runtime.status === 'ready' ? (runtime.handle?.db ?? null) : null), log);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    runtime.status = 'stopping';
    runtime.deriver.stop();
    runtime.alertSender.stop();
    server.close();
    server.closeAllConnections();
    // Calls in flight are answered (their requests spooled), the transaction a worker holds
    // commits or rolls back; what is left in the spool waits for the next start.
    const closing = (grpc?.close() ?? Promise.resolve())
      .then(() => runtime.holdMover?.stop())
      .then(() => runtime.spoolWorkers?.stop())
      .then(() => runtime.readReplica?.stop())
      .then(() => runtime.handle?.close() ?? Promise.resolve());
    closing.catch(() => {}).finally(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error: { code, message } }));
}

function fail(error: unknown): never {
  console.error(`[loopscope] ${(error as Error).message}`);
  console.error('[loopscope] stopped');
  process.exit(1);
}

/**
 * OTLP/gRPC on its port. The default port is often another Collector's, Jaeger's or Phoenix's:
 * taken, Loopscope starts without gRPC and says how to move it; a port the operator chose must
 * be had, or the server stops.
 */
async function listenGrpcIfFree(
  config: ServerConfig,
  log: (message: string) => void,
): Promise<GrpcListener | null> {
  if (config.grpcPort === null) return null;
  try {
    const grpc = await listenGrpc(
      {
        host: config.host,
        port: config.grpcPort,
        maxBodyBytes: config.maxBodyBytes,
        limits: config.grpc,
      },
      otlpEndpointDeps,
    );
    log(`OTLP/gRPC on ${config.host}:${grpc.port}`);
    return grpc;
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
        ? 'it is taken'
        : (error as Error).message;
    if (config.grpcPortChosen) {
      fail(
        new Error(
          `OTLP/gRPC cannot listen on ${config.host}:${config.grpcPort} (${reason}); set LOOPSCOPE_GRPC_PORT to another port, or to off`,
        ),
      );
    }
    log(
      `OTLP/gRPC is off: port ${config.grpcPort} ${reason === 'it is taken' ? 'is taken' : `cannot be had (${reason})`}; set LOOPSCOPE_GRPC_PORT to another port to serve it. OTLP/HTTP is unaffected.`,
    );
    return null;
  }
}

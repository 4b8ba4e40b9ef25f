// The server under test, either the built one as its own process (what `npm start` runs: Next,
// the deriver, the real admission limits) or, for the smoke test, the same route handlers behind
// a plain node server in this process (no build needed).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { rawRows } from '../../db/test-database';
import { freePort, waitForHealth } from '../../e2e/support/spawn-server';
import { startTestServer } from '../../e2e/support/test-server';
import type { BenchDatabase, OpenDatabase } from './databases';
import type { DatabaseKind } from './report';

export interface BenchServer {
  kind: DatabaseKind;
  url: string;
  key: string;
  /** The process that serves: its RSS and CPU are the server's. */
  pid: number;
  /** Whether `pid` is this process (in-process server). */
  inProcess: boolean;
  /**
   * Marked runs not yet derived, or null while this process cannot look (PGlite held by the
   * server process).
   */
  dirtyRuns(): Promise<number | null>;
  /** Rows of one SQL statement; for a PGlite server process only after `stop()`. */
  query(text: string): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
  /** Releases what `query` opened; the database itself is the caller's. */
  close(): Promise<void>;
  output(): string;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `node [nodeFlags] bin/loopscope.mjs start --no-build`, as e2e/support/spawn-server does. */
async function spawnBuilt(env: Record<string, string>, nodeFlags: readonly string[]) {
  let output = '';
  const port = freePort();
  const child = spawn(
    process.execPath,
    [...nodeFlags, 'bin/loopscope.mjs', 'start', '--no-build'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOOPSCOPE_GRPC_PORT: 'off',
        // Their runs are dated anywhere in time: no retention sweep unless a test asks for one.
        LOOPSCOPE_RETENTION_SWEEP_MINUTES: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(
      url,
      () => child.exitCode !== null,
      () => output,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    pid: child.pid ?? 0,
    output: () => output,
    /** SIGTERM: the server closes its database and exits (and writes a --cpu-prof profile). */
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function startBuiltServer(
  database: BenchDatabase,
  options: { env?: Record<string, string>; nodeFlags?: string[] } = {},
): Promise<BenchServer> {
  const key = `lsk_bench-${randomBytes(16).toString('hex')}`;
  const server = await spawnBuilt(
    { ...database.serverEnv, LOOPSCOPE_INIT_API_KEY: key, ...options.env },
    options.nodeFlags ?? [],
  );
  let opened: OpenDatabase | null = null;
  let stopped = false;
  const open = async () => (opened ??= await database.open({ maxConnections: 2 }));
  return {
    kind: database.kind,
    url: server.url,
    key,
    pid: server.pid,
    inProcess: false,
    dirtyRuns: async () => {
      if (database.kind === 'pglite' && !stopped) return null;
      const [row] = await (await open()).query('select count(*)::int as n from dirty_runs');
      return Number(row?.n ?? 0);
    },
    query: async (text) => {
      if (database.kind === 'pglite' && !stopped)
        throw new Error('the PGlite folder is held by the server process: stop it first');
      return (await open()).query(text);
    },
    stop: async () => {
      await server.kill();
      stopped = true;
    },
    close: async () => {
      await opened?.close();
      opened = null;
    },
    output: server.output,
  };
}

export async function startInProcessServer(kind: DatabaseKind): Promise<BenchServer> {
  // The built server's defaults (config.ts): 8 requests at work, 16 × that waiting.
  const server = await startTestServer(kind, { ingestConcurrency: 8, ingestQueue: 128 });
  const query = (text: string) => rawRows(server.database.db, sql.raw(text));
  let closed = false;
  return {
    kind,
    url: server.url,
    key: server.key,
    pid: process.pid,
    inProcess: true,
    dirtyRuns: async () => Number((await query('select count(*)::int as n from dirty_runs'))[0]?.n),
    query,
    // The database lives as long as the server here: it is dropped on close, not on stop.
    stop: async () => {
      server.runtime.deriver.stop();
      await server.runtime.deriver.idle();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await server.close();
    },
    output: () => '',
  };
}

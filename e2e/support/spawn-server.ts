// Starts the built Loopscope server as its own process (the way `npm start` does, on the build
// Playwright's web server made), for tests that kill it, restart it, or give it its own database.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface SpawnedServer {
  url: string;
  process: ChildProcess;
  output: () => string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function spawnServer(
  env: Record<string, string>,
  port: number,
): Promise<SpawnedServer> {
  let output = '';
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin', 'loopscope.mjs'), 'start', '--no-build'],
    {
      cwd: ROOT,
      // OTLP/gRPC off unless the test gives it a port: many servers share this machine.
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: '',
        LOOPSCOPE_GRPC_PORT: 'off',
        // Their runs are dated anywhere in time: no retention sweep unless a test asks for one.
        LOOPSCOPE_RETENTION_SWEEP_MINUTES: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(
    url,
    () => child.exitCode !== null,
    () => output,
  );
  return {
    url,
    process: child,
    output: () => output,
    exited,
    kill: async (signal) => {
      if (child.exitCode === null) child.kill(signal);
      await exited;
    },
  };
}

export async function waitForHealth(
  url: string,
  gaveUp: () => boolean,
  output: () => string,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gaveUp()) throw new Error(`the server exited:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server did not become healthy in ${timeoutMs} ms:\n${output()}`);
}

// Below Linux's ephemeral range (32768 and up), where outgoing sockets (database clients,
// exporters) take ports: a random port there was once taken before the server could listen.
const handedOut = new Set<number>();
export function freePort(): number {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

/**
 * Resolves once the server's spool is empty: every request it answered 200 has its spans stored
 * (a server stopped before that leaves them for its next start).
 */
export async function spoolDrained(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/api/health`);
      const body = (await response.json()) as {
        spool?: { requests: number };
        onDisk?: { requests: number } | null;
      };
      if (response.status === 200 && body.spool?.requests === 0 && !body.onDisk?.requests) return;
      last = JSON.stringify(body);
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the spool did not empty in ${timeoutMs} ms (last health: ${last})`);
}

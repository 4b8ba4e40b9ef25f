// Projects of their own for browser specs, made the way a person would: `loopscope keys create`
// (with PGlite it asks the running e2e server, which holds the data folder).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`;
}

/** Creates project `name` (if new) and a key for it; returns the key. */
export async function createProjectKey(name: string): Promise<string> {
  const dataDir = process.env.LOOPSCOPE_E2E_DIR
    ? path.join(process.env.LOOPSCOPE_E2E_DIR, 'data')
    : undefined;
  const { stdout } = await run(
    process.execPath,
    ['bin/loopscope.mjs', 'keys', 'create', '--project', name],
    { env: { ...process.env, ...(dataDir ? { LOOPSCOPE_DATA_DIR: dataDir } : {}) } },
  );
  const key = stdout.trim().split('\n').pop()?.trim();
  if (!key?.startsWith('lsk_')) throw new Error(`keys create printed no key:\n${stdout}`);
  return key;
}

/** Waits until the project's API lists `count` runs, none of them still running: runs are
 * derived from their spans after the 200, so a page opened sooner could miss some. */
export async function waitForRuns(baseURL: string, key: string, count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`${baseURL}/api/v1/runs?limit=500`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (response.ok) {
      const { runs } = (await response.json()) as { runs: { exitCategory: string }[] };
      if (runs.length >= count && runs.every((r) => r.exitCategory !== 'running')) return;
    }
    if (Date.now() > deadline) throw new Error(`the project did not show ${count} finished runs`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

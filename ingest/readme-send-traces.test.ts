// The README's "Send traces" script, pasted as a user would into a file of its own and run with
// plain Node against a server on a fresh database: it ends right away, and its run still arrives
// whole (the provider it keeps is shut down, which flushes the batch).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetOf } from '../e2e/support/readme-snippet';
import { startTestServer } from '../e2e/support/test-server';
import type { TestServer } from '../e2e/support/test-server';
import type { RunSummary, StepJson } from '../lib/api-types';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('README: Send traces', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer('pglite');
    // Inside the repository, so the script finds the packages as an installed project would.
    mkdirSync(path.join(ROOT, 'node_modules', '.cache'), { recursive: true });
    dir = mkdtempSync(path.join(ROOT, 'node_modules', '.cache', 'readme-send-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server?.close();
  });

  const get = async <T>(route: string): Promise<T> =>
    (await (
      await fetch(`${server.url}${route}`, { headers: { authorization: `Bearer ${server.key}` } })
    ).json()) as T;

  it('runs as pasted, with PORT and LOOPSCOPE_API_KEY, and delivers one run with its steps', async () => {
    const script = snippetOf(
      readFileSync(path.join(ROOT, 'README.md'), 'utf8'),
      'Send traces',
      'js',
    );
    const file = path.join(dir, 'send-a-run.mjs');
    writeFileSync(file, script);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: new URL(server.url).port,
      LOOPSCOPE_API_KEY: server.key,
    };
    delete env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    await promisify(execFile)(process.execPath, [file], { cwd: dir, env, timeout: 60_000 });
    await server.settle();
    const { runs } = await get<{ runs: RunSummary[] }>('/api/v1/runs');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      agent: 'hello-agent',
      goal: 'Greet the world',
      exitCategory: 'goal_satisfied',
      stepCount: 2,
    });
    const { steps } = await get<{ steps: StepJson[] }>(`/api/v1/runs/${runs[0]!.id}/steps`);
    expect(steps.map((s) => [s.index, s.action])).toEqual([
      [1, 'greet'],
      [2, 'greet'],
    ]);
  });
});

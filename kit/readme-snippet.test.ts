// The README's "Instrument your loop" snippet, run as a user would run it (its own Node process,
// the real OTLP exporter) against a server on a fresh database, so the documentation cannot rot.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { RunSummary, StepJson } from '@/lib/api-types';
import { snippetOf } from '@/e2e/support/readme-snippet';
import { readPriceFile } from '@/lib/settings';
import { PriceTable } from '@/trajectory/pricing';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('README: Instrument your loop', () => {
  let server: TestServer;
  let dir: string;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    server.runtime.prices = new PriceTable(readPriceFile(path.join(ROOT, 'prices.json')));
    // Inside the repository, so the snippet resolves the packages as an installed project would.
    mkdirSync(path.join(ROOT, 'node_modules', '.cache'), { recursive: true });
    dir = mkdtempSync(path.join(ROOT, 'node_modules', '.cache', 'readme-snippet-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server?.close();
  });

  it('runs as written and its run arrives with the conventions read', async () => {
    const snippet = snippetOf(
      readFileSync(path.join(ROOT, 'README.md'), 'utf8'),
      'Instrument your loop',
    );
    expect(snippet).toContain("from '@loopscope/kit'");
    expect(snippet).toContain('process.env.PORT ?? 3000');
    const file = path.join(dir, 'instrument-your-loop.mts');
    writeFileSync(
      file,
      snippet.replace("'@loopscope/kit'", JSON.stringify(path.join(ROOT, 'kit', 'index.ts'))),
    );
    await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      env: { ...process.env, LOOPSCOPE_API_KEY: server.key, PORT: new URL(server.url).port },
      timeout: 60_000,
    });

    const response = await fetch(`${server.url}/api/v1/runs?agent=ops-agent`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    const { runs } = (await response.json()) as { runs: RunSummary[] };
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run).toMatchObject({
      agent: 'ops-agent',
      goal: 'Bring the orders service back up',
      exitCategory: 'no_progress',
      exitReason: 'no_progress',
      verification: 'contradicted',
      stepCount: 2,
      inputTokens: 4600,
      outputTokens: 160,
      flags: { repeat: { step: 2, of: 1 }, fabricatedSuccess: false },
    });
    expect(run!.costUsd).toBeCloseTo((2 * (2300 * 2 + 80 * 8)) / 1e6, 12); // gpt-4.1 rates
    const steps = (await (
      await fetch(`${server.url}/api/v1/runs/${run!.id}/steps`, {
        headers: { authorization: `Bearer ${server.key}` },
      })
    ).json()) as { steps: StepJson[] };
    expect(steps.steps.map((s) => [s.action, s.verdict, s.verdictSource, s.signals])).toEqual([
      ['restart_service', 'fail', 'environment', []],
      ['restart_service', 'fail', 'environment', ['repeat']],
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { createSender } from '@/e2e/support/otel';
import { emitRun, fixedRestart, restartLoop } from '@/e2e/support/scenarios';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { RunDiffJson, RunSummary } from '@/lib/api-types';

describe.each(TEST_DATABASE_KINDS)('run diff and baseline on %s', (kind) => {
  let server: TestServer;
  let other: { projectId: string; key: string };
  const base = Date.now() - 3600_000;

  const get = async <T>(path: string, key = server.key): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    other = await server.newProject('other');
    const sender = createSender({ url: server.url, key: server.key });
    emitRun(sender.tracer, fixedRestart({ runId: 'good-old', startMs: base }));
    emitRun(sender.tracer, fixedRestart({ runId: 'good', startMs: base + 60_000 }));
    // Verified but another goal, and verified but later: neither is the failing run's baseline.
    emitRun(
      sender.tracer,
      fixedRestart({ runId: 'other-goal', goal: 'Restart billing', startMs: base + 90_000 }),
    );
    emitRun(sender.tracer, restartLoop({ runId: 'failing', startMs: base + 120_000 }));
    emitRun(sender.tracer, restartLoop({ runId: 'failing-again', startMs: base + 150_000 }));
    emitRun(sender.tracer, fixedRestart({ runId: 'good-later', startMs: base + 180_000 }));
    await sender.shutdown();
    const theirs = createSender({ url: server.url, key: other.key });
    emitRun(theirs.tracer, fixedRestart({ runId: 'theirs', startMs: base }));
    await theirs.shutdown();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('aligns a failing run with a passing one: kinds, step numbers, first divergence and signal', async () => {
    const { status, body } = await get<RunDiffJson>('/api/v1/runs/failing/diff/good');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual([
      'a',
      'alignment',
      'b',
      'firstDivergence',
      'firstSignal',
    ]);
    expect(body.a).toMatchObject({ id: 'failing', exitCategory: 'no_progress' });
    expect(body.b).toMatchObject({ id: 'good', verification: 'verified' });
    expect(body.alignment).toEqual([
      { kind: 'same', a: 1, b: 1 },
      { kind: 'only_b', a: null, b: 2 },
      // The restart's argument differs only in spacing: one canonical action, one result.
      { kind: 'same', a: 2, b: 3 },
      { kind: 'only_a', a: 3, b: null },
      { kind: 'only_a', a: 4, b: null },
      { kind: 'only_b', a: null, b: 4 },
    ]);
    expect(body.firstDivergence).toEqual({ a: null, b: 2 });
    expect(body.firstSignal).toEqual({ a: 3, b: null });
  });

  it('the other way round swaps the sides (leftovers between two pairs: a’s first)', async () => {
    const { body } = await get<RunDiffJson>('/api/v1/runs/good/diff/failing');
    expect(body.alignment.map((e) => [e.kind, e.b, e.a])).toEqual([
      ['same', 1, 1],
      ['only_a', null, 2],
      ['same', 2, 3],
      ['only_a', null, 4],
      ['only_b', 3, null],
      ['only_b', 4, null],
    ]);
    expect(body.firstSignal).toEqual({ a: null, b: 3 });
  });

  it('identical runs, and a run with itself, have no divergence', async () => {
    for (const path of ['/api/v1/runs/failing/diff/failing-again', '/api/v1/runs/good/diff/good']) {
      const { body } = await get<RunDiffJson>(path);
      expect(body.firstDivergence).toBeNull();
      expect(body.alignment.every((e) => e.kind === 'same' && e.a === e.b)).toBe(true);
      expect(body.alignment).toHaveLength(4);
    }
  });

  it('another project’s run, or a missing one, is a 404 on either side', async () => {
    for (const path of [
      '/api/v1/runs/failing/diff/theirs',
      '/api/v1/runs/theirs/diff/failing',
      '/api/v1/runs/failing/diff/nope',
      '/api/v1/runs/theirs/baseline',
    ]) {
      const { status, body } = await get<{ error: { code: string; message: string } }>(path);
      expect(status, path).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
    // Their own key sees their own run.
    expect((await get('/api/v1/runs/theirs/diff/theirs', other.key)).status).toBe(200);
  });

  it('a run id the database cannot hold is a 400 that names it', async () => {
    const { status, body } = await get<{ error: { code: string; message: string } }>(
      `/api/v1/runs/failing/diff/${encodeURIComponent('a\u0000b')}`,
    );
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/runId/);
  });

  it('the baseline is the latest earlier verified run of the same agent and goal', async () => {
    const baseline = async (id: string) =>
      (await get<{ run: RunSummary | null }>(`/api/v1/runs/${id}/baseline`)).body.run;
    expect((await baseline('failing'))?.id).toBe('good');
    expect((await baseline('failing-again'))?.id).toBe('good');
    expect((await baseline('good'))?.id).toBe('good-old');
    expect(await baseline('good-old')).toBeNull();
    expect(await baseline('other-goal')).toBeNull();
    const { status, body } = await get<{ run: RunSummary }>('/api/v1/runs/good-later/baseline');
    expect(status).toBe(200);
    expect(body.run).toMatchObject({ id: 'good', agent: 'ops-agent', verification: 'verified' });
  });
});

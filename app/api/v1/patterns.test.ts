import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { createSender } from '@/e2e/support/otel';
import { emitRun, restartLoop, slowStall } from '@/e2e/support/scenarios';
import type { RunSpec, StepSpec } from '@/e2e/support/scenarios';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { LoopPatternJson } from '@/db/read/loop-patterns';
import type { RunSummary } from '@/lib/api-types';

const HOUR = 3_600_000;

/** The restart loop with the service's arguments in another key order and spacing. */
function restartWith(args: unknown, overrides: Partial<RunSpec>): RunSpec {
  const spec = restartLoop(overrides);
  return {
    ...spec,
    steps: spec.steps.map((s) => (s.action === 'restart_service' ? { ...s, args } : s)),
  };
}

/** Fix A / fix B with constant arguments, entered at `first`: the state returns every other step. */
function cycle(first: 'A' | 'B', overrides: Partial<RunSpec>): RunSpec {
  const other = first === 'A' ? 'B' : 'A';
  const steps: StepSpec[] = [first, other, first, other].map((letter) => ({
    action: `apply_fix_${letter}`,
    args: { file: `fix-${letter}.ts` },
    state: { file: `fix-${letter}` },
    costUsd: 0.05,
  }));
  return {
    goal: 'Make the failing test pass',
    agent: 'coder',
    steps,
    end: { termination: { kind: 'no_progress', signal: 'cyclical_loop', step: 4 } },
    ...overrides,
  };
}

describe.each(TEST_DATABASE_KINDS)('loop patterns on %s', (kind) => {
  let server: TestServer;
  const now = Date.now();

  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const patterns = async (query = '') =>
    (await get<{ patterns: LoopPatternJson[] }>(`/api/v1/patterns${query}`)).body.patterns;
  const run = async (id: string) => (await get<{ run: RunSummary }>(`/api/v1/runs/${id}`)).body.run;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const sender = createSender({ url: server.url, key: server.key });
    // Over three days, so whole days, whole hours and the edge hours all count.
    emitRun(
      sender.tracer,
      restartWith({ service: 'orders', zone: 'eu' }, { runId: 'r1', startMs: now - 50 * HOUR }),
    );
    emitRun(
      sender.tracer,
      restartWith(
        { zone: 'eu', service: ' orders' },
        { runId: 'r2', startMs: now - 26 * HOUR - 1234 },
      ),
    );
    emitRun(
      sender.tracer,
      restartWith({ zone: 'eu', service: 'orders ' }, { runId: 'r3', startMs: now - 20 * 60_000 }),
    );
    emitRun(
      sender.tracer,
      restartWith(
        { service: 'orders', zone: 'eu' },
        { runId: 'other-agent', agent: 'night-agent', startMs: now - 3 * HOUR },
      ),
    );
    emitRun(sender.tracer, cycle('A', { runId: 'c1', startMs: now - 30 * HOUR }));
    emitRun(sender.tracer, cycle('B', { runId: 'c2', startMs: now - 5 * HOUR }));
    emitRun(sender.tracer, { ...slowStall(8), runId: 's1', startMs: now - 4 * HOUR });
    emitRun(
      sender.tracer,
      restartWith(
        { service: 'orders', zone: 'eu' },
        { runId: 'old', startMs: now - 40 * 24 * HOUR },
      ),
    );
    await sender.shutdown();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('groups the same loop across runs whatever the key order and spacing of its arguments', async () => {
    const list = await patterns();
    const restart = list.filter((p) => p.kind === 'repeat' && p.agent === 'ops-agent');
    expect(restart).toHaveLength(1);
    const [top] = restart;
    expect(top).toMatchObject({ runs: 3, exampleRunIds: ['r3', 'r2', 'r1'] });
    expect(top!.label).toMatch(/^restart_service \{/);
    expect(top!.signature).toMatch(/^repeat:/);
    const own = await Promise.all(['r1', 'r2', 'r3'].map(run));
    expect(top!.wastedUsd).toBeCloseTo(
      own.reduce((sum, r) => sum + r.wastedUsd, 0),
      9,
    );
    expect(top!.wastedUsd).toBeGreaterThan(0);
    expect(top!.firstSeen).toBe(own[0]!.startedAt);
    expect(top!.lastSeen).toBe(own[2]!.startedAt);
    // The same action looping in another agent is another pattern.
    expect(list.filter((p) => p.kind === 'repeat' && p.agent === 'night-agent')).toHaveLength(1);
    // Sorted by wasted spend, then runs.
    const wasted = list.map((p) => p.wastedUsd);
    expect(wasted).toEqual([...wasted].sort((a, b) => b - a));
    expect(Object.keys(top!).sort()).toEqual([
      'agent',
      'exampleRunIds',
      'firstSeen',
      'kind',
      'label',
      'lastSeen',
      'runs',
      'signature',
      'wastedUsd',
    ]);
  });

  it('a cycle entered at different steps is one pattern', async () => {
    const revisits = (await patterns('?kind=revisit')).filter((p) => p.agent === 'coder');
    expect(revisits).toHaveLength(1);
    expect(revisits[0]).toMatchObject({ runs: 2, exampleRunIds: ['c2', 'c1'] });
    const own = await Promise.all(['c1', 'c2'].map(run));
    expect(revisits[0]!.wastedUsd).toBeCloseTo(own[0]!.wastedUsd + own[1]!.wastedUsd, 9);
  });

  it('filters by window, agent and kind', async () => {
    const lastDay = new Date(now - 24 * HOUR).toISOString();
    const recent = await patterns(`?from=${encodeURIComponent(lastDay)}`);
    const restart = recent.find((p) => p.kind === 'repeat' && p.agent === 'ops-agent');
    expect(restart).toMatchObject({ runs: 1, exampleRunIds: ['r3'] });
    expect(recent.find((p) => p.kind === 'revisit')).toMatchObject({
      runs: 1,
      exampleRunIds: ['c2'],
    });
    const night = await patterns('?agent=night-agent');
    expect(night.map((p) => p.agent)).toEqual(['night-agent']);
    const stalls = await patterns('?kind=stall');
    expect(stalls.every((p) => p.kind === 'stall')).toBe(true);
    expect(stalls.map((p) => p.exampleRunIds)).toEqual([['s1']]);
    // A window of 40 days back finds the old run too.
    const wide = await patterns(
      `?from=${encodeURIComponent(new Date(now - 41 * 24 * HOUR).toISOString())}`,
    );
    expect(wide.find((p) => p.kind === 'repeat' && p.agent === 'ops-agent')?.runs).toBe(4);
    expect((await get('/api/v1/patterns?kind=spin')).status).toBe(400);
  });

  it('deriving a run again replaces its share instead of adding it twice', async () => {
    const before = await patterns();
    await server.database.db.execute(
      sql`insert into dirty_runs (project_id, run_id) select project_id, id from runs where project_id = ${server.projectId}::uuid on conflict do nothing`,
    );
    await server.settle();
    expect(await patterns()).toEqual(before);
    // The rollup agrees with the runs' own rows.
    const rows = (await server.database.db.execute(sql`
      select (select sum(runs) from pattern_rollups where grain = 'day' and project_id = ${server.projectId}::uuid)::int as rolled,
        (select sum(runs) from pattern_totals where project_id = ${server.projectId}::uuid)::int as totalled,
        (select count(*) from run_patterns where project_id = ${server.projectId}::uuid)::int as direct`)) as unknown;
    const [row] = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
      rolled: number;
      totalled: number;
      direct: number;
    }[];
    expect(Number(row!.rolled)).toBe(Number(row!.direct));
    expect(Number(row!.totalled)).toBe(Number(row!.direct));
    expect(Number(row!.direct)).toBeGreaterThanOrEqual(8);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender } from '@/e2e/support/otel';
import { emitRun, oscillation, restartLoop, slowStall } from '@/e2e/support/scenarios';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import { TEST_DATABASE_KINDS } from '../test-database';
import { bucketFor, categoriesOverTime } from './categories-over-time';
import { listProjects, projectHasRuns } from './projects';
import { runFacets } from './run-facets';
import { stepSpan } from './step-span';
import { trajectorySteps } from './trajectory-steps';

const HOUR = 3600_000;

describe.each(TEST_DATABASE_KINDS)('dashboard read models on %s', (kind) => {
  let server: TestServer;
  let empty: { projectId: string };
  const ids: Record<string, string> = {};
  // Whole hours, so the buckets each run falls in are known.
  const base = Math.floor(Date.now() / HOUR) * HOUR - 5 * HOUR;
  const window = { from: new Date(base - HOUR), to: new Date(base + 6 * HOUR) };

  beforeAll(async () => {
    server = await startTestServer(kind);
    empty = await server.newProject(`empty-${kind}`);
    const sender = createSender({ url: server.url, key: server.key });
    ids.restart = emitRun(sender.tracer, restartLoop({ startMs: base + 60_000, variant: 'v1' }));
    ids.osc = emitRun(
      sender.tracer,
      oscillation(['A', 'B', 'A', 'B'], { startMs: base + HOUR + 60_000, variant: 'v2' }),
    );
    ids.stall = emitRun(sender.tracer, { ...slowStall(8), startMs: base + 2 * HOUR + 60_000 });
    ids.osc2 = emitRun(
      sender.tracer,
      oscillation(['A', 'B', 'C', 'A'], { startMs: base + 2 * HOUR + 120_000, variant: 'v2' }),
    );
    await sender.shutdown();
    await postRawSpan(server, `${'ab'.repeat(16)}`, base + 3 * HOUR);
    await server.settle(); // runs are derived after the 200
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists projects by name and tells an empty project from one with runs', async () => {
    const names = (await listProjects(server.database.db)).map((p) => p.name);
    expect(names).toEqual(['default', `empty-${kind}`]);
    expect(await projectHasRuns(server.database.db, server.projectId)).toBe(true);
    expect(await projectHasRuns(server.database.db, empty.projectId)).toBe(false);
  });

  it('offers the agents of the window and the variants of the chosen agent, most runs first', async () => {
    const all = await runFacets(server.database.db, { projectId: server.projectId, window });
    expect(all.agents).toEqual([
      { value: 'coder', runs: 2 },
      { value: 'form-filler', runs: 1 },
      { value: 'ops-agent', runs: 1 },
    ]);
    expect(all.variants).toEqual([
      { value: 'v2', runs: 2 },
      { value: 'v1', runs: 1 },
    ]);
    const ops = await runFacets(server.database.db, {
      projectId: server.projectId,
      window,
      agent: 'ops-agent',
    });
    expect(ops.agents).toHaveLength(3);
    expect(ops.variants).toEqual([{ value: 'v1', runs: 1 }]);
    const other = await runFacets(server.database.db, { projectId: empty.projectId, window });
    expect(other).toEqual({ agents: [], variants: [] });
  });

  it('counts categories per hour, dense over the window, and per day', async () => {
    const hourly = await categoriesOverTime(server.database.db, {
      projectId: server.projectId,
      window,
      bucket: 'hour',
    });
    expect(hourly.map((b) => b.startMs)).toEqual(
      Array.from({ length: 7 }, (_, k) => base - HOUR + k * HOUR),
    );
    expect(hourly.map((b) => b.runs)).toEqual([
      {},
      { no_progress: 1 },
      { no_progress: 1 },
      { budget_exhausted: 1, no_progress: 1 },
      { unknown: 1 },
      {},
      {},
    ]);
    expect(hourly[1]?.costUsd).toBeCloseTo(0.07, 10);
    const daily = await categoriesOverTime(server.database.db, {
      projectId: server.projectId,
      window,
      agent: 'coder',
      bucket: 'day',
    });
    expect(daily.reduce((n, b) => n + (b.runs.no_progress ?? 0), 0)).toBe(2);
    expect(daily.every((b) => b.startMs % (24 * HOUR) === 0)).toBe(true);
    expect(bucketFor(window)).toBe('hour');
    expect(bucketFor({ from: new Date(0), to: new Date(30 * 24 * HOUR) })).toBe('day');
  });

  it('reads a trajectory in step order with revisits, cycles and the stall window', async () => {
    const scope = { projectId: server.projectId };
    const osc = await trajectorySteps(server.database.db, { ...scope, runId: ids.osc! });
    expect(osc.map((s) => [s.ordinal, s.index, s.revisitOf, s.revisitCycle])).toEqual([
      [1, 1, null, null],
      [2, 2, null, null],
      [3, 3, 1, 2],
      [4, 4, 2, 2],
    ]);
    expect(osc[0]).not.toHaveProperty('actionArgs');
    const stall = await trajectorySteps(server.database.db, { ...scope, runId: ids.stall! });
    expect(stall.find((s) => s.signals.includes('stall'))).toMatchObject({
      index: 6,
      stallSince: 1,
    });
    const elsewhere = await trajectorySteps(server.database.db, {
      projectId: empty.projectId,
      runId: ids.osc!,
    });
    expect(elsewhere).toEqual([]);
  });

  it('loads one step with its arguments, result and raw span, scoped to the project', async () => {
    const db = server.database.db;
    const step = await stepSpan(db, {
      projectId: server.projectId,
      runId: ids.restart!,
      ordinal: 2,
    });
    expect(step).toMatchObject({
      index: 2,
      action: 'restart_service',
      actionArgs: '{"service":"orders"}',
      result: 'restart ok',
      costUsd: 0.02,
    });
    expect(step?.span?.name).toBe('step 2 restart_service');
    expect(step?.span?.attributes).toContainEqual(['loop.action', 'restart_service']);
    expect(step?.span?.resource).toContainEqual(['service.name', 'loopscope-test']);
    expect(
      await stepSpan(db, { projectId: empty.projectId, runId: ids.restart!, ordinal: 2 }),
    ).toBeNull();
    expect(
      await stepSpan(db, { projectId: server.projectId, runId: ids.restart!, ordinal: 9 }),
    ).toBeNull();

    const raw = await stepSpan(db, {
      projectId: server.projectId,
      runId: 'ab'.repeat(16),
      ordinal: 1,
    });
    const keys = raw?.span?.attributes.map(([k]) => k);
    expect(keys).toContain('__proto__');
    expect(raw?.span?.attributes.find(([k]) => k === '__proto__')?.[1]).toEqual({ polluted: true });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(raw?.verdictFields).toEqual([
      ['email', true],
      ['name', false],
    ]);
  });
});

/** A run of one step sent as OTLP JSON, with an attribute named `__proto__` and field verdicts. */
async function postRawSpan(server: TestServer, traceId: string, startMs: number): Promise<void> {
  const nanos = (ms: number) => `${ms}000000`;
  const attribute = (key: string, value: object) => ({ key, value });
  const body = JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [] },
        scopeSpans: [
          {
            spans: [
              {
                traceId,
                spanId: 'cd'.repeat(8),
                name: 'step 1 probe',
                startTimeUnixNano: nanos(startMs),
                endTimeUnixNano: nanos(startMs + 100),
                attributes: [
                  attribute('loop.step', { intValue: 1 }),
                  attribute('loop.action', { stringValue: 'probe' }),
                  attribute('loop.verdict.fields', { stringValue: '{"name":false,"email":true}' }),
                  attribute('__proto__', {
                    kvlistValue: { values: [attribute('polluted', { boolValue: true })] },
                  }),
                ],
              },
            ],
          },
        ],
      },
    ],
  });
  const response = await fetch(`${server.url}/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
    body,
  });
  expect(response.status).toBe(200);
}

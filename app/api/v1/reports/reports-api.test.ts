// The weekly report end to end: runs spread over weeks around the 2025/2026 year boundary, two
// variants, sent through /v1/traces by the real OTel exporters out of order and again; the
// rollup must equal a direct aggregation of runs after every delivery, and the API must answer
// the hand-computed weeks in JSON and CSV. The variant comparison and cap replay read models run
// against the same data.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { capRuns } from '@/db/read/cap-runs';
import { agentVariantRuns } from '@/db/read/agent-variants';
import { compareVariants } from '@/db/read/variant-comparison';
import { rawRows } from '@/db/test-database';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { emitRun } from '@/e2e/support/scenarios';
import type { RunSpec, StepSpec } from '@/e2e/support/scenarios';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import { simulateCaps } from '@/trajectory/report-caps';
import { percentile } from '@/trajectory/report-metrics';
import { isoWeek } from '@/trajectory/report-weeks';

const at = (iso: string) => Date.parse(iso);
const steps = (n: number, costUsd: number): StepSpec[] =>
  Array.from({ length: n }, (_, k) => ({ action: `act_${k}`, args: { k }, costUsd }));
const verified = (units = 1) =>
  ({ termination: { kind: 'goal_met' }, verified: true, verifiedUnits: units }) as const;
const runaway = { termination: { kind: 'step_ceiling', steps: 6, cap: 6 } } as const;
const stopped = { termination: { kind: 'no_progress', signal: 'repeated_call', step: 2 } } as const;

const coder = (variant: string, startIso: string, spec: Partial<RunSpec>): RunSpec => ({
  goal: 'Fix the failing test',
  agent: 'coder',
  variant,
  startMs: at(startIso),
  steps: [],
  ...spec,
});

// Hand-computed weeks (ISO, UTC):
//   2025-W52 uncontrolled: 4 runs, $0.10 + $0.10 + $0.60 + $0.60 = $1.40, 2 units → $0.70
//   2025-W52 controlled:   4 runs, $0.10 + $0.10 + $0.20 + $0.20 = $0.60, 2 units → $0.30
//   2026-W01 uncontrolled: 2 runs (31 Dec and 1 Jan), $0.30 + $0.60 = $0.90, 3 units → $0.30
//   2026-W01 controlled:   1 run, $0.20, nothing verified → null
//   2026-W02 uncontrolled: 1 run, $0.10, 1 unit → $0.10
//   2026-W02 no variant:   2 writer runs, $0.035 (gpt-4o tokens) + an unpriced model → null
const RUNS: Record<string, RunSpec> = {
  u1: coder('uncontrolled', '2025-12-22T10:00:00Z', { steps: steps(2, 0.05), end: verified() }),
  // Its root starts on Sunday 23:59:59.995, its first step on Monday: until the root arrives the
  // run sits in 2026-W01, then it moves back to 2025-W52.
  u2: coder('uncontrolled', '2025-12-28T23:59:59.995Z', { steps: steps(2, 0.05), end: verified() }),
  u3: coder('uncontrolled', '2025-12-23T10:00:00Z', {
    steps: steps(6, 0.1),
    end: runaway,
    limits: { maxSteps: 6 },
  }),
  u4: coder('uncontrolled', '2025-12-24T10:00:00Z', {
    steps: steps(6, 0.1),
    end: runaway,
    limits: { maxSteps: 6 },
  }),
  c1: coder('controlled', '2025-12-22T11:00:00Z', { steps: steps(2, 0.05), end: verified() }),
  c2: coder('controlled', '2025-12-23T11:00:00Z', { steps: steps(2, 0.05), end: verified() }),
  c3: coder('controlled', '2025-12-24T11:00:00Z', { steps: steps(2, 0.1), end: stopped }),
  c4: coder('controlled', '2025-12-25T11:00:00Z', { steps: steps(2, 0.1), end: stopped }),
  u5: coder('uncontrolled', '2025-12-31T12:00:00Z', { steps: steps(3, 0.1), end: verified(3) }),
  u6: coder('uncontrolled', '2026-01-01T08:00:00Z', {
    steps: steps(6, 0.1),
    end: runaway,
    limits: { maxSteps: 6 },
  }),
  c5: coder('controlled', '2026-01-02T08:00:00Z', { steps: steps(2, 0.1), end: stopped }),
  u7: coder('uncontrolled', '2026-01-06T08:00:00Z', { steps: steps(2, 0.05), end: verified() }),
  w1: {
    goal: 'Summarise the report',
    agent: 'writer',
    startMs: at('2026-01-07T08:00:00Z'),
    steps: [{ action: 'write', tokens: { input: 10_000, output: 1_000, model: 'gpt-4o' } }],
    end: { termination: { kind: 'model_stopped' } },
  },
  w2: {
    goal: 'Summarise the report',
    agent: 'writer',
    startMs: at('2026-01-07T09:00:00Z'),
    steps: [{ action: 'write', tokens: { input: 5_000, output: 500, model: 'mystery-llm' } }],
    end: { termination: { kind: 'model_stopped' } },
  },
};
const WINDOW = 'from=2025-12-22&to=2026-01-12';

type WeekJson = {
  week: string;
  group: string | null;
  runs: number;
  verifiedRuns: number;
  verifiedUnits: number;
  costUsd: number;
  costPerVerifiedUnit: number | null;
};

describe.each(TEST_DATABASE_KINDS)('weekly report API on %s', (kind) => {
  let server: TestServer;
  const recentStart = Date.now() - 2 * 3600_000;

  const get = async (path: string, key = server.key) => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return response;
  };
  const weeks = async (query: string) => {
    const response = await get(`/api/v1/reports/weekly?${query}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { weeks: WeekJson[] }).weeks;
  };

  /** Sends spans through a real OTLP exporter, as a harness would. */
  const send = async (spans: ReadableSpan[], protocol: 'proto' | 'json', gzip: boolean) => {
    const options = {
      url: `${server.url}/v1/traces`,
      headers: { Authorization: `Bearer ${server.key}` },
      compression: (gzip ? 'gzip' : 'none') as never,
    };
    const exporter = protocol === 'json' ? new JsonExporter(options) : new ProtoExporter(options);
    await new Promise<void>((resolve, reject) =>
      exporter.export(spans as never, (result) =>
        result.code === 0 ? resolve() : reject(result.error ?? new Error('export failed')),
      ),
    );
    await exporter.shutdown();
  };

  /** The rollup next to the runs summed directly (weeks by to_char's ISO fields). */
  const rollupMatchesRuns = async () => {
    await server.settle();
    const direct = await rawRows(
      server.database.db,
      sql`select to_char(started_at at time zone 'UTC', 'IYYY-"W"IW') as week,
            coalesce(agent, '') as agent, coalesce(variant, '') as variant,
            coalesce(model, '') as model, count(*)::int as runs,
            sum(case when verification = 'verified' then 1 else 0 end)::int as verified_runs,
            trim_scale(sum(verified_units::numeric))::text as verified_units,
            trim_scale(sum(cost_usd::numeric))::text as cost_usd,
            trim_scale(sum(wasted_usd::numeric))::text as wasted_usd,
            sum(case when unpriced_models = '{}' then 0 else 1 end)::int as unpriced_runs
          from runs where project_id = ${server.projectId}::uuid
          group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
    );
    const rollup = await rawRows(
      server.database.db,
      sql`select to_char(week_start, 'IYYY-"W"IW') as week, agent, variant, model, runs,
            verified_runs, trim_scale(verified_units)::text as verified_units,
            trim_scale(cost_usd)::text as cost_usd, trim_scale(wasted_usd)::text as wasted_usd,
            unpriced_runs
          from weekly_rollups where project_id = ${server.projectId}::uuid
          order by 1, 2, 3, 4`,
    );
    expect(rollup).toEqual(direct);
    return rollup;
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'reports-test' }),
      spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
    });
    const tracer = provider.getTracer('reports-test');
    for (const spec of Object.values(RUNS)) emitRun(tracer, spec);
    emitRun(
      tracer,
      coder('uncontrolled', new Date(recentStart).toISOString(), {
        steps: steps(1, 0.01),
        end: runaway,
      }),
    );
    const spans = memory.getFinishedSpans();
    const isRoot = (s: ReadableSpan) => s.parentSpanContext === undefined;

    // Steps first and backwards (runs exist, named by service.name, some in the wrong week)…
    await send(spans.filter((s) => !isRoot(s)).reverse(), 'proto', false);
    const early = await rollupMatchesRuns();
    expect(early.some((r) => r.agent === 'reports-test' && r.week === '2026-W01')).toBe(true);
    // …then everything, roots included, interleaved; then everything again.
    const interleaved = [
      ...spans.filter((_, k) => k % 2 === 1),
      ...spans.filter((_, k) => k % 2 === 0),
    ];
    await send(interleaved, 'json', true);
    await rollupMatchesRuns();
    await send(spans, 'proto', true);
    await rollupMatchesRuns();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps the rollup equal to the runs it sums, with no run left in its early week', async () => {
    const rows = await rollupMatchesRuns();
    expect(rows.some((r) => r.agent === 'reports-test')).toBe(false);
    expect(rows.reduce((sum, r) => sum + Number(r.runs), 0)).toBe(Object.keys(RUNS).length + 1);
  });

  it('answers the hand-computed weeks grouped by variant', async () => {
    const got = await weeks(`${WINDOW}&groupBy=variant`);
    const expected: [string, string | null, number, number, number, number, number | null][] = [
      ['2025-W52', 'controlled', 4, 2, 2, 0.6, 0.3],
      ['2025-W52', 'uncontrolled', 4, 2, 2, 1.4, 0.7],
      ['2026-W01', 'controlled', 1, 0, 0, 0.2, null],
      ['2026-W01', 'uncontrolled', 2, 1, 3, 0.9, 0.3],
      ['2026-W02', 'uncontrolled', 1, 1, 1, 0.1, 0.1],
      ['2026-W02', null, 2, 0, 0, 0.035, null],
    ];
    expect(got.map((w) => [w.week, w.group, w.runs, w.verifiedRuns, w.verifiedUnits])).toEqual(
      expected.map((e) => e.slice(0, 5)),
    );
    got.forEach((w, k) => {
      const [, , , , , cost, ratio] = expected[k]!;
      expect(Object.keys(w)).toEqual([
        'week',
        'group',
        'runs',
        'verifiedRuns',
        'verifiedUnits',
        'costUsd',
        'costPerVerifiedUnit',
      ]);
      expect(w.costUsd).toBeCloseTo(cost, 10);
      if (ratio === null) expect(w.costPerVerifiedUnit).toBeNull();
      else expect(w.costPerVerifiedUnit).toBeCloseTo(ratio, 10);
    });
  });

  it('groups by agent and by model', async () => {
    const byAgent = await weeks(`${WINDOW}&groupBy=agent`);
    expect(byAgent.map((w) => [w.week, w.group, w.runs, w.verifiedUnits])).toEqual([
      ['2025-W52', 'coder', 8, 4],
      ['2026-W01', 'coder', 3, 3],
      ['2026-W02', 'coder', 1, 1],
      ['2026-W02', 'writer', 2, 0],
    ]);
    expect(byAgent[0]!.costPerVerifiedUnit).toBeCloseTo(2.0 / 4, 10);
    expect(byAgent[1]!.costPerVerifiedUnit).toBeCloseTo(1.1 / 3, 10);
    const byModel = await weeks(`${WINDOW}&groupBy=model`);
    const w02 = byModel.filter((w) => w.week === '2026-W02');
    expect(w02.map((w) => [w.group, w.runs])).toEqual([
      ['gpt-4o', 1],
      ['mystery-llm', 1],
      [null, 1],
    ]);
    expect(w02[0]!.costUsd).toBeCloseTo(0.035, 10);
  });

  it('serves the same rows as CSV under a header, empty where JSON has null', async () => {
    const json = await weeks(`${WINDOW}&groupBy=variant`);
    const response = await get(`/api/v1/reports/weekly?${WINDOW}&groupBy=variant&format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.csv"/);
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).toBe('week,group,runs,verifiedRuns,verifiedUnits,costUsd,costPerVerifiedUnit');
    expect(lines.at(-1)).toBe('');
    // Text cells come quoted; these have no comma inside.
    const rows = lines.slice(1, -1).map((l) => l.split(',').map((c) => c.replace(/^"|"$/g, '')));
    expect(rows).toHaveLength(json.length);
    rows.forEach((cells, k) => {
      const w = json[k]!;
      expect(cells.slice(0, 5)).toEqual([
        w.week,
        w.group ?? '',
        String(w.runs),
        String(w.verifiedRuns),
        String(w.verifiedUnits),
      ]);
      expect(Number(cells[5])).toBe(w.costUsd);
      expect(cells[6]).toBe(w.costPerVerifiedUnit === null ? '' : String(w.costPerVerifiedUnit));
    });
    expect(rows[2]).toEqual(['2026-W01', 'controlled', '1', '0', '0', '0.2', '']);
  });

  it('widens a window to the whole ISO weeks it overlaps; defaults to the last 12 weeks', async () => {
    const overlap = await weeks(
      'from=2025-12-24T12:00:00Z&to=2025-12-29T00:00:01Z&groupBy=variant',
    );
    expect([...new Set(overlap.map((w) => w.week))]).toEqual(['2025-W52', '2026-W01']);
    const recent = await weeks('');
    expect(recent).toEqual([
      expect.objectContaining({
        week: isoWeek(recentStart).label,
        group: 'coder',
        runs: 1,
        costPerVerifiedUnit: null,
      }),
    ]);
  });

  it('answers 400 naming the bad parameter, 401 without a key, nothing for another project', async () => {
    const bad = async (query: string, name: string) => {
      const response = await get(`/api/v1/reports/weekly?${query}`);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('bad_request');
      expect(body.error.message.startsWith(`${name}:`)).toBe(true);
    };
    await bad('groupBy=team', 'groupBy');
    await bad('format=xml', 'format');
    await bad('from=yesterday', 'from');
    await bad('from=2026-01-12&to=2025-12-22', 'from');
    await bad('from=2000-01-01&to=2026-01-01', 'from');
    expect((await get('/api/v1/reports/weekly')).status).toBe(200);
    expect((await get('/api/v1/reports/weekly', 'lsk_wrong')).status).toBe(401);
    const other = await server.newProject(`reports-other-${kind}`);
    const response = await get(`/api/v1/reports/weekly?${WINDOW}`, other.key);
    expect(await response.json()).toEqual({ weeks: [] });
  });

  it('is served from the rollup, not from runs', async () => {
    const db = server.database.db;
    await db.execute(sql`update weekly_rollups set cost_usd = cost_usd + 100
      where project_id = ${server.projectId}::uuid and week_start = '2026-01-05' and variant = ''
        and model = 'gpt-4o'`);
    try {
      const w02 = (await weeks(`${WINDOW}&groupBy=variant`)).find(
        (w) => w.week === '2026-W02' && w.group === null,
      );
      expect(w02?.costUsd).toBeCloseTo(100.035, 10);
    } finally {
      await db.execute(sql`update weekly_rollups set cost_usd = cost_usd - 100
        where project_id = ${server.projectId}::uuid and week_start = '2026-01-05' and variant = ''
        and model = 'gpt-4o'`);
    }
  });

  it('compares two variants from the runs summary columns', async () => {
    const comparison = await compareVariants(server.database.db, {
      projectId: server.projectId,
      window: {
        from: new Date(at('2025-12-22T00:00:00Z')),
        to: new Date(at('2026-01-12T00:00:00Z')),
      },
      a: 'uncontrolled',
      b: 'controlled',
    });
    const { a, b } = comparison;
    expect([a.runs, a.verifiedRuns, a.verifiedUnits]).toEqual([7, 4, 6]);
    expect([b.runs, b.verifiedRuns, b.verifiedUnits]).toEqual([5, 2, 2]);
    expect(a.costUsd).toBeCloseTo(2.4, 10);
    expect(b.costUsd).toBeCloseTo(0.8, 10);
    const costsA = [0.1, 0.1, 0.6, 0.6, 0.3, 0.6, 0.1];
    expect(a.cost.p50).toBeCloseTo(percentile(costsA, 0.5)!, 10);
    expect(a.cost.p95).toBeCloseTo(percentile(costsA, 0.95)!, 10);
    expect(a.steps.p95).toBeCloseTo(percentile([2, 2, 6, 6, 3, 6, 2], 0.95)!, 10);
    expect(b.steps.max).toBe(2);
    expect(a.cost.histogram.reduce((s, n) => s + n, 0)).toBe(7);
    expect(b.steps.histogram.reduce((s, n) => s + n, 0)).toBe(5);
    expect(a.steps.histogram).toHaveLength(comparison.stepLayout.bins);
    expect(a.exits).toEqual([
      { exitCategory: 'goal_satisfied', runs: 4 },
      { exitCategory: 'budget_exhausted', runs: 3 },
    ]);
    expect(b.exits).toEqual([
      { exitCategory: 'goal_satisfied', runs: 2 },
      { exitCategory: 'no_progress', runs: 3 },
    ]);
  });

  it('replays a group under caps from its steps', async () => {
    const result = await capRuns(server.database.db, {
      projectId: server.projectId,
      window: {
        from: new Date(at('2025-12-22T00:00:00Z')),
        to: new Date(at('2026-01-12T00:00:00Z')),
      },
      variant: 'uncontrolled',
    });
    expect(result).toMatchObject({ matching: 7, truncated: false });
    expect(new Set(result.runs.map((r) => r.agent))).toEqual(new Set(['coder']));
    expect(result.runs.map((r) => r.stepCosts.length)).toEqual([2, 6, 3, 2, 6, 6, 2]); // newest first
    expect(result.runs.find((r) => r.stepCosts.length === 3)).toMatchObject({ verifiedUnits: 3 });
    expect(result.runs.filter((r) => r.maxSteps === 6)).toHaveLength(3);
    const uncapped = simulateCaps(result.runs, {});
    expect(uncapped.costUsd).toBeCloseTo(2.4, 10);
    // a 3-step cap cuts the three runaways at $0.30 each and keeps every verified run
    const capped = simulateCaps(result.runs, { maxSteps: 3 });
    expect(capped).toMatchObject({ cutRuns: 3, lostVerifiedRuns: 0, verifiedUnits: 6 });
    expect(capped.costPerVerifiedUnit).toBeCloseTo((0.1 * 3 + 0.3 + 0.9) / 6, 10);
  });

  it('counts runs per agent and variant, for the compare page’s default', async () => {
    const pairs = await agentVariantRuns(server.database.db, {
      projectId: server.projectId,
      window: {
        from: new Date(at('2025-12-22T00:00:00Z')),
        to: new Date(at('2026-01-12T00:00:00Z')),
      },
    });
    // The writer runs name no variant: nothing to compare there.
    expect(pairs).toEqual([
      { agent: 'coder', variant: 'uncontrolled', runs: 7 },
      { agent: 'coder', variant: 'controlled', runs: 5 },
    ]);
  });
});

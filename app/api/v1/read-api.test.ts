import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { getRun } from '@/db/read/get-run';
import { captureWithRealExporters } from '@/ingest/otlp/fixtures/exporters';
import { createSender } from '@/e2e/support/otel';
import {
  emitRun,
  oscillation,
  paginatedCrawl,
  restartLoop,
  slowStall,
} from '@/e2e/support/scenarios';
import type { RunSpec } from '@/e2e/support/scenarios';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { RunSummary, StepJson } from '@/lib/api-types';

describe.each(TEST_DATABASE_KINDS)('read API and guard on %s', (kind) => {
  let server: TestServer;
  const ids: Record<string, string> = {};
  const base = Date.now() - 3600_000;

  const get = async <T>(path: string, key = server.key): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const guard = async (runId: string) => {
    const response = await fetch(`${server.url}/api/v1/guard`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ runId }),
    });
    return (await response.json()) as {
      decision: string;
      reasonCode: string;
      step: number | null;
      evidence: string;
    };
  };
  const run = async (id: string) => (await get<{ run: RunSummary }>(`/api/v1/runs/${id}`)).body.run;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const sender = createSender({ url: server.url, key: server.key });
    const specs: Record<string, RunSpec> = {
      restart: restartLoop({ startMs: base }),
      oscillation: oscillation(['A', 'B', 'A', 'B'], { startMs: base + 60_000 }),
      cycle3: oscillation(['A', 'B', 'C', 'A'], { startMs: base + 120_000 }),
      stall: { ...slowStall(8), startMs: base + 180_000 },
      crawl: { ...paginatedCrawl(5), startMs: base + 240_000 },
      fabricated: {
        goal: 'Fix the migration',
        agent: 'coder',
        startMs: base + 300_000,
        steps: [
          { action: 'edit', args: { file: 'a.ts' }, state: { diff: 0 }, costUsd: 0.1 },
          {
            action: 'run_tests',
            args: {},
            state: { diff: 0 },
            verdict: 'fail',
            verdictSource: 'environment',
            costUsd: 0.1,
          },
        ],
        end: { termination: { kind: 'goal_met' } },
      },
      selfGraded: {
        goal: 'Summarise the report',
        agent: 'writer',
        startMs: base + 360_000,
        steps: [
          { action: 'write', args: {}, verdict: 'pass', verdictSource: 'self', costUsd: 0.03 },
        ],
        end: { termination: { kind: 'goal_met' } },
      },
      escalation: {
        goal: 'Move the nightly export to the new bucket',
        agent: 'ops-agent',
        startMs: base + 420_000,
        steps: [
          {
            action: 'write_bucket',
            args: { bucket: 'exports-v2' },
            fail: 'permission',
            costUsd: 0.02,
          },
        ],
        end: {
          termination: {
            kind: 'escalated',
            handOver: 'Grant storage.objects.create on exports-v2 to the export job',
          },
        },
      },
    };
    for (const [name, spec] of Object.entries(specs)) ids[name] = emitRun(sender.tracer, spec);
    await sender.shutdown();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the restart loop ends no_progress with a repeat on its second restart, and the guard terminates', async () => {
    expect(await run(ids.restart!)).toMatchObject({
      exitCategory: 'no_progress',
      stepCount: 4,
      flags: { repeat: { step: 3, of: 2 }, revisit: null, stall: null },
      verification: 'unverified',
    });
    expect(await guard(ids.restart!)).toMatchObject({
      decision: 'terminate',
      reasonCode: 'repeated_call',
      step: 3,
    });
    expect((await guard(ids.restart!)).evidence).toContain('restart_service');
  });

  it('fix A / fix B is a revisit of cycle 2, A/B/C/A of cycle 3; the guard escalates', async () => {
    expect((await run(ids.oscillation!)).flags.revisit).toEqual({ step: 3, of: 1, cycleLength: 2 });
    expect((await run(ids.cycle3!)).flags.revisit).toEqual({ step: 4, of: 1, cycleLength: 3 });
    expect(await guard(ids.oscillation!)).toMatchObject({
      decision: 'escalate',
      reasonCode: 'cyclical_loop',
      step: 3,
    });
    const { body } = await get<{ steps: StepJson[] }>(`/api/v1/runs/${ids.oscillation}/steps`);
    expect(body.steps.map((s) => [s.index, s.signals, s.revisitOf])).toEqual([
      [1, [], null],
      [2, [], null],
      [3, ['revisit'], 1],
      [4, ['revisit'], 2],
    ]);
  });

  it('a flat progress metric stalls at step 6; the declared step cap is reached', async () => {
    const stalled = await run(ids.stall!);
    expect(stalled).toMatchObject({
      exitCategory: 'budget_exhausted',
      exitKind: 'steps',
      flags: { stall: { step: 6 } },
    });
    // Steps 6, 7 and 8 at $0.01: the step that carries the stall is waste too.
    expect(stalled.wastedUsd).toBeCloseTo(0.03, 10);
    expect(await guard(ids.stall!)).toMatchObject({
      decision: 'terminate',
      reasonCode: 'call_limit_exceeded',
      step: 8,
    });
  });

  it('a healthy paginated crawl has no signal and is verified by the environment', async () => {
    expect(await run(ids.crawl!)).toMatchObject({
      exitCategory: 'goal_satisfied',
      verification: 'verified',
      verifiedUnits: 5,
      wastedUsd: 0,
      flags: {
        repeat: null,
        revisit: null,
        stall: null,
        toolCircuit: null,
        fabricatedSuccess: false,
      },
    });
    expect(await guard(ids.crawl!)).toMatchObject({
      decision: 'continue',
      reasonCode: 'healthy',
      step: null,
    });
  });

  it('goal met while the environment check failed is a fabricated success; a self-graded pass is unverified', async () => {
    expect(await run(ids.fabricated!)).toMatchObject({
      verification: 'contradicted',
      flags: { fabricatedSuccess: true },
    });
    expect(await run(ids.selfGraded!)).toMatchObject({
      verification: 'unverified',
      verifiedUnits: 0,
      flags: { fabricatedSuccess: false },
    });
  });

  it('an escalation keeps its hand-over', async () => {
    expect(await run(ids.escalation!)).toMatchObject({
      exitCategory: 'escalated',
      exitReason: 'escalated',
    });
    const detail = await getRun(server.database.db, {
      projectId: server.projectId,
      runId: ids.escalation!,
    });
    expect(detail?.escalation).toBe('Grant storage.objects.create on exports-v2 to the export job');
  });

  it('groups runs by exit reason with counts, spend and shares', async () => {
    const { body } = await get<{
      groups: { exitCategory: string; runs: number; costUsd: number; share: number }[];
    }>('/api/v1/exit-reasons');
    const byCategory = Object.fromEntries(body.groups.map((g) => [g.exitCategory, g]));
    expect(byCategory.no_progress?.runs).toBe(3);
    expect(byCategory.goal_satisfied?.runs).toBe(3);
    expect(byCategory.budget_exhausted?.runs).toBe(1);
    expect(byCategory.escalated?.runs).toBe(1);
    expect(body.groups.reduce((s, g) => s + g.share, 0)).toBeCloseTo(1, 10);
    expect(byCategory.no_progress?.costUsd).toBeCloseTo(0.07 + 0.2 + 0.2, 10);
  });

  it('lists runs with filters and keyset pages', async () => {
    const filtered = await get<{ runs: RunSummary[] }>('/api/v1/runs?exitCategory=no_progress');
    expect(filtered.body.runs.map((r) => r.id).sort()).toEqual(
      [ids.restart, ids.oscillation, ids.cycle3].sort(),
    );
    const flagged = await get<{ runs: RunSummary[] }>('/api/v1/runs?flag=fabricatedSuccess');
    expect(flagged.body.runs.map((r) => r.id)).toEqual([ids.fabricated]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { runs: RunSummary[]; nextCursor: string | null } } = await get(
        `/api/v1/runs?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.runs.map((r) => r.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(8);
    expect(new Set(seen).size).toBe(8);
    expect(seen[0]).toBe(ids.escalation); // newest first
  });

  it('answers 400 naming a bad parameter, 401 without a key, 404 for another project', async () => {
    const bad = await get<{ error: { code: string; message: string } }>(
      '/api/v1/runs?exitCategory=nope',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/exitCategory/);
    expect((await get('/api/v1/runs?limit=0')).status).toBe(400);
    expect((await get('/api/v1/runs', 'lsk_wrong')).status).toBe(401);
    const other = await server.newProject(`other-${kind}`);
    expect((await get(`/api/v1/runs/${ids.restart}`, other.key)).status).toBe(404);
    expect((await get(`/api/v1/runs/${ids.restart}/steps`, other.key)).status).toBe(404);
    expect((await get<{ runs: unknown[] }>('/api/v1/runs', other.key)).body.runs).toEqual([]);
  });

  it('out of order and twice gives the same answers as one orderly delivery', async () => {
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'replay' }),
      spanProcessors: [new SimpleSpanProcessor({ exporter: memory })],
    });
    const spec = oscillation(['A', 'B', 'A', 'C', 'A'], {
      startMs: base + 500_000,
      runId: `replay-${kind}`,
    });
    emitRun(provider.getTracer('replay'), spec);
    const orderly = emitRun(provider.getTracer('replay'), { ...spec, runId: undefined });
    const spans = memory.getFinishedSpans();
    const replay = spans.filter(
      (s) => s.attributes['loop.run.id'] !== undefined || s.spanContext().traceId !== orderly,
    );
    const root = replay.find((s) => s.attributes['loop.run.id'] !== undefined)!;
    const stepsOnly = replay.filter((s) => s !== root).reverse();
    const batches = [
      ...(await captureWithRealExporters([root], ['json'])),
      ...(await captureWithRealExporters(stepsOnly.slice(0, 3), ['proto-gzip'])),
      ...(await captureWithRealExporters(stepsOnly.slice(3), ['proto'])),
    ];
    for (const batch of [...batches, ...batches.reverse()]) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${server.key}`,
        'content-type': batch.contentType,
      };
      if (batch.contentEncoding) headers['content-encoding'] = batch.contentEncoding;
      const response = await fetch(`${server.url}/v1/traces`, {
        method: 'POST',
        headers,
        body: Buffer.from(batch.body),
      });
      expect(response.status).toBe(200);
    }
    await captureWithRealExporters(
      spans.filter((s) => s.spanContext().traceId === orderly),
      ['proto'],
    ).then(async ([batch]) => {
      await fetch(`${server.url}/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.key}`, 'content-type': batch!.contentType },
        body: Buffer.from(batch!.body),
      });
    });
    const a = await run(`replay-${kind}`);
    const b = await run(orderly);
    const comparable = (r: RunSummary) => ({ ...r, id: undefined, traceIds: undefined });
    expect(comparable(a)).toEqual(comparable(b));
    expect(a.flags.revisit).toEqual({ step: 3, of: 1, cycleLength: 2 });
    const stepsA = (await get<{ steps: StepJson[] }>(`/api/v1/runs/replay-${kind}/steps`)).body
      .steps;
    const stepsB = (await get<{ steps: StepJson[] }>(`/api/v1/runs/${orderly}/steps`)).body.steps;
    const strip = (s: StepJson) => ({ ...s, spanId: undefined });
    expect(stepsA.map(strip)).toEqual(stepsB.map(strip));
  });
});

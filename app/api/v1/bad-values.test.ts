// Values at and past the edge of every type, inside perfectly valid OTLP: each gets a 200, is
// stored as unknown with a record of what was wrong, and every read of the project (and of every
// other project) keeps answering.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '@/db/test-database';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { RunSummary, StepJson } from '@/lib/api-types';

type Value = { intValue: number | string } | { doubleValue: number } | { stringValue: string };

const START = Date.parse('2026-11-30T10:00:00Z');
const nanos = (ms: number) => `${ms}000000`;

function traceOf(k: number): string {
  return `bad0000000000000000000000000${String(k).padStart(4, '0')}`;
}

/** A run of one root and one step span; `step` attributes go on the step. */
function run(k: number, step: Record<string, Value>, extra: { startTimeUnixNano?: unknown } = {}) {
  const traceId = traceOf(k);
  const attrs = (values: Record<string, Value>) =>
    Object.entries(values).map(([key, value]) => ({ key, value }));
  return [
    {
      traceId,
      spanId: `${String(k).padStart(4, '0')}000000000001`,
      name: 'agent',
      startTimeUnixNano: nanos(START + k * 1000),
      endTimeUnixNano: nanos(START + k * 1000 + 500),
      attributes: attrs({
        'loop.agent': { stringValue: `edge-${k}` },
        'loop.exit.reason': { stringValue: 'goal_met' },
      }),
    },
    {
      traceId,
      spanId: `${String(k).padStart(4, '0')}000000000002`,
      parentSpanId: `${String(k).padStart(4, '0')}000000000001`,
      name: 'step',
      startTimeUnixNano: extra.startTimeUnixNano ?? nanos(START + k * 1000 + 10),
      endTimeUnixNano: nanos(START + k * 1000 + 20),
      attributes: attrs({
        'loop.action': { stringValue: 'search' },
        ...(Object.hasOwn(step, 'loop.step') ? {} : { 'loop.step': { intValue: 1 } }),
        ...step,
      }),
    },
  ];
}

/** Several step spans in one run, each with the same attributes (sums past a type's edge). */
function manySteps(k: number, count: number, step: Record<string, Value>) {
  const [root, first] = run(k, step) as [object, Record<string, unknown>];
  const steps = Array.from({ length: count }, (_, s) => ({
    ...first,
    spanId: `${String(k).padStart(4, '0')}00000000010${s}`,
    attributes: [
      ...(first.attributes as object[]).filter((a) => (a as { key: string }).key !== 'loop.step'),
      { key: 'loop.step', value: { intValue: s + 1 } },
    ],
  }));
  return [root, ...steps];
}

const body = (spans: object[]) =>
  JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] });

describe.each(TEST_DATABASE_KINDS)('values past every edge, on %s', (kind) => {
  let server: TestServer;
  let other: { projectId: string; key: string };
  const call = (path: string, init: RequestInit = {}, key = server.key) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    });
  const ingest = (spans: object[], key = server.key) =>
    call('/v1/traces', { method: 'POST', body: body(spans) }, key);

  const cases: [string, object[]][] = [
    ['loop.step of 3000000000', run(1, { 'loop.step': { intValue: 3_000_000_000 } })],
    ['loop.step of -1', run(2, { 'loop.step': { intValue: -1 } })],
    [
      'input tokens of 2^63-1',
      run(3, { 'gen_ai.usage.input_tokens': { intValue: '9223372036854775807' } }),
    ],
    [
      'three steps of 2^62 input tokens',
      manySteps(4, 3, { 'gen_ai.usage.input_tokens': { intValue: '4611686018427387904' } }),
    ],
    ['context tokens of 1e20', run(5, { 'loop.context_tokens': { doubleValue: 1e20 } })],
    ['three costs of 1e308', manySteps(6, 3, { 'loop.cost_usd': { doubleValue: 1e308 } })],
    ['a negative cost', run(7, { 'loop.cost_usd': { doubleValue: -5 } })],
    ['progress of -1e308', run(8, { 'loop.progress': { doubleValue: -1e308 } })],
    ['verified units of 1e300', run(9, { 'loop.verified_units': { doubleValue: 1e300 } })],
    ['a step limit of 1e300', run(10, { 'loop.limits.max_steps': { doubleValue: 1e300 } })],
    ['a step number that is text', run(11, { 'loop.step': { stringValue: 'three' } })],
    ['a fractional step number', run(12, { 'loop.step': { doubleValue: 2.5 } })],
  ];

  beforeAll(async () => {
    server = await startTestServer(kind);
    other = await server.newProject(`neighbour-${kind}`);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('takes every value with a 200 and keeps what was wrong on the run', async () => {
    for (const [name, spans] of cases) {
      const response = await ingest(spans);
      expect(response.status, name).toBe(200);
    }
    await server.settle();
    const rows = await rawRows(
      server.database.db,
      sql`select agent, value_problem_count, value_problems from runs
          where project_id = ${server.projectId}::uuid order by agent`,
    );
    expect(rows).toHaveLength(cases.length);
    for (const row of rows) {
      expect(Number(row.value_problem_count), String(row.agent)).toBeGreaterThan(0);
      const problems = row.value_problems as { key: string; problem: string; spanId: string }[];
      expect(problems[0]?.problem).toMatch(/stored as unknown/);
      expect(problems[0]?.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    const failures = await rawRows(server.database.db, sql`select * from derive_failures`);
    expect(failures).toEqual([]);
  });

  it('rejects a start time past uint64 (a JSON number of 1e300) in partial_success', async () => {
    const response = await ingest(run(13, {}, { startTimeUnixNano: 1e300 }));
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      partialSuccess: { rejectedSpans: string; errorMessage: string };
    };
    expect(answer.partialSuccess.rejectedSpans).toBe('1');
    expect(answer.partialSuccess.errorMessage).toMatch(/startTimeUnixNano.*uint64/);
  });

  it('stores out-of-range values as unknown: no spend, no tokens, steps in order', async () => {
    const list = (await (await call('/api/v1/runs?limit=100&from=2026-11-29')).json()) as {
      runs: RunSummary[];
    };
    const byAgent = new Map(list.runs.map((r) => [r.agent, r]));
    expect(byAgent.get('edge-3')?.inputTokens).toBe(0);
    expect(byAgent.get('edge-4')?.inputTokens).toBe(0);
    expect(byAgent.get('edge-6')?.costUsd).toBe(0);
    expect(byAgent.get('edge-7')?.costUsd).toBe(0);
    expect(byAgent.get('edge-1')?.stepCount).toBe(1);
    const steps = (await (
      await call(`/api/v1/runs/${byAgent.get('edge-1')?.id}/steps`)
    ).json()) as { steps: StepJson[] };
    // The step number is unknown, so the step is numbered by its start.
    expect(steps.steps.map((s) => s.index)).toEqual([1]);
  });

  it('answers every read of the project with 200, and the guard for every run', async () => {
    const paths = [
      '/api/v1/runs?from=2026-11-29',
      '/api/v1/exit-reasons?from=2026-11-29',
      '/api/v1/reports/weekly?from=2026-11-01',
      '/api/v1/reports/weekly?from=2026-11-01&format=csv',
      '/api/v1/reports/weekly?from=2026-11-01&groupBy=model',
    ];
    for (const path of paths) expect((await call(path)).status, path).toBe(200);
    const { runs } = (await (await call('/api/v1/runs?limit=100&from=2026-11-29')).json()) as {
      runs: RunSummary[];
    };
    for (const r of runs) {
      const id = encodeURIComponent(r.id);
      expect((await call(`/api/v1/runs/${id}`)).status).toBe(200);
      expect((await call(`/api/v1/runs/${id}/steps`)).status).toBe(200);
      const guard = await call('/api/v1/guard', {
        method: 'POST',
        body: JSON.stringify({ runId: r.id }),
      });
      expect(guard.status, r.agent ?? '').toBe(200);
    }
  });

  it('reads model messages and tool arguments nested 5,000 deep on every view of the run', async () => {
    const nestedArray = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
    const nestedObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const [root, step] = run(14, { 'loop.action.args': { stringValue: nestedObject } }) as [
      object,
      { spanId: string },
    ];
    const chat = {
      ...step,
      spanId: '0014000000000003',
      parentSpanId: step.spanId,
      name: 'chat gpt-4o',
      attributes: [
        { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
        { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
        {
          key: 'gen_ai.input.messages',
          value: { stringValue: `[{"role":"user","parts":[${nestedArray}]}]` },
        },
        {
          key: 'gen_ai.output.messages',
          value: { stringValue: `[{"role":"assistant","parts":[${nestedObject}]}]` },
        },
      ],
    };
    expect((await ingest([root, step, chat])).status).toBe(200);
    await server.settle();
    const id = traceOf(14);
    // The run page's trace and step views walk every attribute and message of its spans.
    for (const path of [
      `/api/v1/runs/${id}`,
      `/api/v1/runs/${id}/steps`,
      `/runs/${id}/spans`,
      `/runs/${id}/steps/1/spans`,
      `/runs/${id}/steps/1/span`,
    ]) {
      const answer = await call(path);
      expect(answer.status, path).toBe(200);
      await answer.json();
    }
    const tree = (await (await call(`/runs/${id}/steps/1/spans`)).json()) as {
      spans: { name: string; attributes: [string, unknown][] }[];
    };
    // Too deep to be read as structure, the messages are kept and shown as the text they came as.
    const attributes = new Map(tree.spans.find((s) => s.name === 'chat gpt-4o')?.attributes);
    expect(attributes.get('gen_ai.input.messages')).toBe(
      `[{"role":"user","parts":[${nestedArray}]}]`,
    );
  });

  it('a span sent again with another start is one span, and does not stretch its run', async () => {
    const now = Date.now();
    const traceId = 'a9a1a000000000000000000000000015';
    const span = (k: number, startMs: number) => ({
      traceId,
      spanId: `a9a1a0000000000${k}`,
      ...(k > 1 ? { parentSpanId: 'a9a1a00000000001' } : {}),
      name: k === 1 ? 'agent' : `step ${k}`,
      startTimeUnixNano: nanos(startMs),
      endTimeUnixNano: nanos(startMs + 1000),
      attributes: [
        k === 1
          ? { key: 'loop.exit.reason', value: { stringValue: 'goal_met' } }
          : { key: 'loop.step', value: { intValue: k - 1 } },
      ],
    });
    const spans = [1, 2, 3, 4].map((k) => span(k, now - 60_000 + k * 1000));
    expect((await ingest(spans)).status).toBe(200);
    await server.settle();
    // The same two spans again, one with a start 8 days earlier, one a second later.
    const again = [span(2, now - 8 * 86_400_000), span(3, now - 60_000 + 4000)];
    expect((await ingest(again)).status).toBe(200);
    await server.settle();
    const tree = (await (await call(`/runs/${traceId}/spans`)).json()) as {
      spans: { spanId: string }[];
      total: number;
    };
    expect(tree.total).toBe(4);
    expect(tree.spans.map((s) => s.spanId).sort()).toEqual(spans.map((s) => s.spanId).sort());
    const { run } = (await (await call(`/api/v1/runs/${traceId}`)).json()) as {
      run: { startedAt: string; durationMs: number; stepCount: number };
    };
    expect(Date.parse(run.startedAt)).toBeGreaterThan(now - 120_000);
    expect(run.durationMs).toBeLessThan(120_000);
    expect(run.stepCount).toBe(3);
  });

  it('leaves other projects ingesting and reading, and no backlog behind', async () => {
    const response = await ingest(run(20, { 'loop.cost_usd': { doubleValue: 0.5 } }), other.key);
    expect(response.status).toBe(200);
    const list = (await (await call('/api/v1/runs?from=2026-11-29', {}, other.key)).json()) as {
      runs: RunSummary[];
    };
    expect(list.runs.map((r) => r.costUsd)).toEqual([0.5]);
    await server.runtime.deriver.idle();
    await server.runtime.deriver.recount();
    expect(server.runtime.deriver.backlog).toBe(0);
  });
});

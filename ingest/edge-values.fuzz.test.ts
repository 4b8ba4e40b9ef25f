// Semantic fuzz through the whole server: valid OTLP whose values sit at and past every type's
// edge, in every attribute Loopscope reads, then every read of the project. Nothing answers 5xx,
// no run fails to derive, and the deriver's backlog drains.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '../db/test-database';
import { TEST_DATABASE_KINDS } from '../db/test-database';
import { startTestServer } from '../e2e/support/test-server';
import type { TestServer } from '../e2e/support/test-server';

const NUMERIC_KEYS = [
  'loop.step',
  'langgraph.step',
  'loop.limits.max_steps',
  'loop.limits.max_usd',
  'loop.limits.wall_clock_ms',
  'loop.verified_units',
  'loop.progress',
  'loop.context_tokens',
  'loop.cost_usd',
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
  'gen_ai.usage.prompt_tokens',
  'gen_ai.usage.cache_read.input_tokens',
  'llm.token_count.prompt',
  'ai.usage.completionTokens',
  'http.response.status_code',
];
const TEXT_KEYS = [
  'loop.run.id',
  'loop.agent',
  'loop.variant',
  'loop.goal',
  'loop.exit.reason',
  'loop.exit.detail',
  'gen_ai.agent.finish_reason',
  'gen_ai.response.finish_reasons',
  'loop.action',
  'loop.action.args',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
  'loop.state.hash',
  'loop.verdict',
  'loop.verdict.source',
  'loop.verdict.fields',
  'loop.error.class',
  'loop.progress.direction',
  'loop.verified',
  'gen_ai.request.model',
  'gen_ai.operation.name',
  'openinference.span.kind',
  'metadata',
  'ai.response.toolCalls',
];

// At and past the edges of int32, int53, int64, float64, and of what each column holds.
const EDGE_INTS = [
  0,
  1,
  -1,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 - 1,
  1e12,
  1e12 + 1,
  3_000_000_000,
];
const EDGE_INT64 = ['9223372036854775807', '-9223372036854775808', '4611686018427387904'];
const EDGE_DOUBLES = [1e308, -1e308, 5e-324, 1e20, -0, 0.1, 1e15, 1e15 + 2, 2.5, -5];
const numberValue = fc.oneof(
  fc.constantFrom(...EDGE_INTS).map((n) => ({ intValue: n })),
  fc.constantFrom(...EDGE_INT64).map((n) => ({ intValue: n })),
  fc.constantFrom(...EDGE_DOUBLES).map((n) => ({ doubleValue: n })),
  fc.constantFrom('NaN', 'Infinity', '-Infinity').map((n) => ({ doubleValue: n })),
  fc.double().map((n) => ({ doubleValue: Number.isFinite(n) ? n : 0 })),
  fc.constantFrom('1e400', '-0', '12', ' 7 ', '0x10', 'three', '').map((s) => ({ stringValue: s })),
  fc.boolean().map((b) => ({ boolValue: b })),
);
const textValue = fc.oneof(
  fc.string({ maxLength: 20 }).map((s) => ({ stringValue: s })),
  fc
    .constantFrom(
      '{"langgraph_step": 1e300}',
      '[{"toolName":"x","args":{"n":1e308}}]',
      '{"a": true, "b": 1e999}',
      'goal_met',
      'MaxTurnsExceeded',
      'pass',
      'environment',
      'up',
      '__proto__',
    )
    .map((s) => ({ stringValue: s })),
  numberValue,
);
const attribute = fc.oneof(
  fc.record({ key: fc.constantFrom(...NUMERIC_KEYS), value: numberValue }),
  fc.record({ key: fc.constantFrom(...TEXT_KEYS), value: textValue }),
);
const NS = 1_000_000n;
const BASE_NS = BigInt(Date.parse('2026-11-30T12:00:00Z')) * NS;
const time = fc.oneof(
  fc.integer({ min: 0, max: 3_600_000 }).map((ms) => String(BASE_NS + BigInt(ms) * NS)),
  fc.constantFrom('1', '18446744073709551615', String(BASE_NS - 1n)),
);

const spanAt = (trace: number, k: number) =>
  fc
    .record({
      attributes: fc.array(attribute, { maxLength: 8 }),
      start: time,
      end: fc.oneof(time, fc.constant('0')),
      status: fc.constantFrom(0, 1, 2),
    })
    .map((s) => ({
      traceId: `ed9e${String(trace).padStart(28, '0')}`,
      spanId: `${String(k + 1).padStart(16, '0')}`,
      parentSpanId: k === 0 ? '' : '0000000000000001',
      name: k === 0 ? 'agent' : 'step',
      startTimeUnixNano: s.start,
      endTimeUnixNano: s.end,
      attributes: s.attributes,
      status: { code: s.status, message: 'edge' },
    }));

describe.each(TEST_DATABASE_KINDS)('edge values through every read on %s', (kind) => {
  let server: TestServer;
  let traces = 0;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.close());

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
    });

  it('answers 200 to every export and every read, and derives every run', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }).chain((n) => {
          const trace = ++traces;
          return fc.tuple(...Array.from({ length: n }, (_, k) => spanAt(trace, k)));
        }),
        async (spans) => {
          const body = JSON.stringify({
            resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }],
          });
          const exported = await call('/v1/traces', { method: 'POST', body });
          expect(exported.status).toBe(200);
          const list = await call('/api/v1/runs?limit=200&from=1970-01-01T00:00:00Z');
          expect(list.status).toBe(200);
          for (const path of [
            '/api/v1/exit-reasons?from=1970-01-01T00:00:00Z',
            '/api/v1/reports/weekly?from=2026-10-01',
            '/api/v1/reports/weekly?from=2026-10-01&format=csv&groupBy=model',
          ]) {
            expect((await call(path)).status, path).toBe(200);
          }
          const { runs } = (await list.json()) as { runs: { id: string }[] };
          for (const { id } of runs.slice(0, 3)) {
            const path = `/api/v1/runs/${encodeURIComponent(id)}`;
            expect((await call(path)).status, path).toBe(200);
            expect((await call(`${path}/steps`)).status, path).toBe(200);
            const guard = await call('/api/v1/guard', {
              method: 'POST',
              body: JSON.stringify({ runId: id }),
            });
            expect(guard.status).toBe(200);
          }
        },
      ),
      { numRuns: kind === 'pglite' ? 50 : 35 },
    );
    await server.settle();
    await server.runtime.deriver.idle();
    await server.runtime.deriver.recount();
    expect(server.runtime.deriver.backlog).toBe(0);
    const failures = await rawRows(
      server.database.db,
      sql`select run_id, error from derive_failures`,
    );
    expect(failures).toEqual([]);
  }, 300_000);
});

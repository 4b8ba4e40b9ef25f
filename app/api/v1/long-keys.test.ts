// Ids and names that rows are keyed and indexed by, past an index entry's size, inside valid
// OTLP: a run id, agent, variant and session of 3,000 varied characters (a B-tree entry holds
// 2,704 bytes) and a model name of 16 KB. Before trajectory/key-text.ts the run id failed the
// whole request at the write (answered 200, then stuck in the spool with the other run it
// carried) and the names failed the run's derivation. Each is stored as its first bytes and a
// hash, and every read finds the run by the text it was sent with.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '@/db/test-database';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { RunSummary, StepJson } from '@/lib/api-types';
import { KEY_TEXT_BYTES, keyText } from '@/trajectory/key-text';

const START = Date.parse('2026-11-30T10:00:00Z');
const nanos = (ms: number) => `${ms}000000`;
/** Text no compression shortens: base64 of random bytes. */
const varied = (length: number) => randomBytes(length).toString('base64').slice(0, length);
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

const LONG_RUN = varied(3000);
// The same id but its last character: a run of its own.
const TWIN_RUN = `${LONG_RUN.slice(0, -1)}${LONG_RUN.endsWith('A') ? 'B' : 'A'}`;
const AGENT = varied(3000);
const VARIANT = varied(3000);
const SESSION = varied(3000);
const MODEL = varied(16_000);

type Attr = { key: string; value: { stringValue: string } | { intValue: number } };
const text = (key: string, value: string): Attr => ({ key, value: { stringValue: value } });
const int = (key: string, value: number): Attr => ({ key, value: { intValue: value } });

/** A run of a root, one step and the step's model call; `root` attributes go on the root. */
function run(k: number, root: Attr[]) {
  const traceId = `10ee${String(k).padStart(28, '0')}`;
  const id = (n: number) => `${String(k).padStart(4, '0')}00000000000${n}`;
  const at = START + k * 1000;
  return [
    {
      traceId,
      spanId: id(1),
      name: 'agent',
      startTimeUnixNano: nanos(at),
      endTimeUnixNano: nanos(at + 500),
      attributes: [text('loop.exit.reason', 'goal_met'), ...root],
    },
    {
      traceId,
      spanId: id(2),
      parentSpanId: id(1),
      name: 'step',
      startTimeUnixNano: nanos(at + 10),
      endTimeUnixNano: nanos(at + 400),
      attributes: [int('loop.step', 1), text('loop.action', 'search')],
    },
    {
      traceId,
      spanId: id(3),
      parentSpanId: id(2),
      name: 'chat',
      startTimeUnixNano: nanos(at + 20),
      endTimeUnixNano: nanos(at + 300),
      attributes: [
        text('gen_ai.operation.name', 'chat'),
        text('gen_ai.request.model', MODEL),
        int('gen_ai.usage.input_tokens', 100),
        int('gen_ai.usage.output_tokens', 10),
      ],
    },
  ];
}

describe.each(TEST_DATABASE_KINDS)('ids and names past an index entry, on %s', (kind) => {
  let server: TestServer;
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
    });
  const json = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await call(path, init);
    expect(response.status, path.slice(0, 120)).toBe(200);
    return (await response.json()) as T;
  };
  const window = 'from=2026-11-29&to=2026-12-01';
  const q = encodeURIComponent;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const long = [
      text('loop.run.id', LONG_RUN),
      text('loop.agent', AGENT),
      text('loop.variant', VARIANT),
      text('loop.session.id', SESSION),
    ];
    const spans = [
      ...run(1, long),
      ...run(2, [text('loop.agent', 'plain')]),
      ...run(3, [text('loop.run.id', TWIN_RUN), text('loop.agent', AGENT)]),
    ];
    // One request carries all three: the long ones must not cost the plain one its spans.
    const response = await call('/v1/traces', {
      method: 'POST',
      body: JSON.stringify({
        resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }],
      }),
    });
    expect(response.status).toBe(200);
    await server.settle();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stores every run of the request: nothing stuck in the spool, no run quarantined', async () => {
    expect(await rawRows(server.database.db, sql`select last_error from ingest_spool`)).toEqual([]);
    expect(await rawRows(server.database.db, sql`select error from derive_failures`)).toEqual([]);
    const { runs } = await json<{ runs: RunSummary[] }>(`/api/v1/runs?${window}`);
    expect(runs.map((r) => r.agent).sort()).toEqual(
      ['plain', keyText(AGENT), keyText(AGENT)].sort(),
    );
  });

  it('keeps each long text as its first bytes and a hash, two ids apart where they differ', async () => {
    const found = await json<{ run: RunSummary }>(`/api/v1/runs/${q(LONG_RUN)}`);
    const twin = await json<{ run: RunSummary }>(`/api/v1/runs/${q(TWIN_RUN)}`);
    for (const [stored, sent] of [
      [found.run.id, LONG_RUN],
      [found.run.agent, AGENT],
      [found.run.variant, VARIANT],
      [found.run.sessionId, SESSION],
    ] as const) {
      expect(stored).not.toBe(sent);
      expect(bytes(stored ?? '')).toBeLessThanOrEqual(KEY_TEXT_BYTES);
      expect(stored?.slice(0, 400)).toBe(sent.slice(0, 400));
    }
    expect(twin.run.id).not.toBe(found.run.id);
    expect(twin.run.id.slice(0, 400)).toBe(found.run.id.slice(0, 400));
    const { steps } = await json<{ steps: StepJson[] }>(`/api/v1/runs/${q(LONG_RUN)}/steps`);
    expect(steps.map((s) => s.action)).toEqual(['search']);
  });

  it('answers the guard, the diff, the baseline and the verdict by the id as sent', async () => {
    const guard = await json<{ decision: string }>('/api/v1/guard', {
      method: 'POST',
      body: JSON.stringify({ runId: LONG_RUN }),
    });
    expect(['continue', 'warn', 'terminate', 'escalate']).toContain(guard.decision);
    const diff = await json<{ a: { id: string }; b: { id: string } }>(
      `/api/v1/runs/${q(LONG_RUN)}/diff/${q(TWIN_RUN)}`,
    );
    expect([diff.a.id, diff.b.id]).toEqual([keyText(LONG_RUN), keyText(TWIN_RUN)]);
    await json(`/api/v1/runs/${q(LONG_RUN)}/baseline`);
    await json(`/api/v1/runs/${q(LONG_RUN)}/verdict`, {
      method: 'POST',
      body: JSON.stringify({ verdict: 'verified', units: 2 }),
    });
    const after = await json<{ run: RunSummary }>(`/api/v1/runs/${q(LONG_RUN)}`);
    expect(after.run).toMatchObject({ verification: 'verified', verificationSource: 'human' });
  });

  it('filters by the names as sent, and lists the session by its id as sent', async () => {
    const filtered = await json<{ runs: RunSummary[] }>(
      `/api/v1/runs?${window}&agent=${q(AGENT)}&variant=${q(VARIANT)}`,
    );
    expect(filtered.runs.map((r) => r.id)).toEqual([keyText(LONG_RUN)]);
    const groups = await json<{ groups: { runs: number }[] }>(
      `/api/v1/exit-reasons?${window}&agent=${q(AGENT)}`,
    );
    expect(groups.groups.reduce((n, g) => n + g.runs, 0)).toBe(2);
    const session = await json<{ session: { id: string }; runs: RunSummary[] }>(
      `/api/v1/sessions/${q(SESSION)}`,
    );
    expect(session.session.id).toBe(keyText(SESSION));
    expect(session.runs.map((r) => r.id)).toEqual([keyText(LONG_RUN)]);
    const sessions = await json<{ sessions: { id: string }[] }>(
      `/api/v1/sessions?${window}&agent=${q(AGENT)}`,
    );
    expect(sessions.sessions.map((s) => s.id)).toEqual([keyText(SESSION)]);
  });

  it('reports by model and pattern with the long model and names', async () => {
    const report = await json<{ weeks: { group: string; runs: number }[] }>(
      `/api/v1/reports/weekly?${window}&groupBy=model`,
    );
    const byModel = report.weeks.filter((w) => w.group === keyText(MODEL));
    expect(byModel.reduce((n, w) => n + w.runs, 0)).toBe(3);
    await json(`/api/v1/patterns?${window}&agent=${q(AGENT)}`);
    expect((await call(`/api/v1/reports/weekly?${window}&format=csv`)).status).toBe(200);
  });
});

// The second-wave conventions end to end: OTLP spans posted to /v1/traces, derived with the
// agents' settings (what LOOPSCOPE_CONFIG gives), read back through the read API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { RunSummary, StepJson } from '@/lib/api-types';
import { loopSettings } from '@/lib/settings';

type Attr = { key: string; value: Record<string, unknown> };
const str = (key: string, v: string): Attr => ({ key, value: { stringValue: v } });
const num = (key: string, v: number): Attr => ({ key, value: { doubleValue: v } });
const int = (key: string, v: number): Attr => ({ key, value: { intValue: v } });

interface ToolCall {
  name: string;
  args?: object;
  result?: string;
  httpStatus?: number;
}

let traceCounter = 0;
/** One run: an invoke_agent root and its tool calls, one step each, $0.01 apiece. */
function run(agent: string, calls: ToolCall[]) {
  traceCounter++;
  const traceId = traceCounter.toString(16).padStart(32, 'a');
  const base = Date.now() - 600_000 + traceCounter * 10_000;
  const ns = (ms: number) => `${base + ms}000000`;
  const rootId = '1'.padStart(16, '0');
  const spans = [
    {
      traceId,
      spanId: rootId,
      name: `invoke_agent ${agent}`,
      startTimeUnixNano: ns(0),
      endTimeUnixNano: ns(1000),
      attributes: [
        str('gen_ai.operation.name', 'invoke_agent'),
        str('gen_ai.agent.name', agent),
        str('loop.exit.reason', 'model_stopped'),
      ],
    },
    ...calls.map((call, k) => ({
      traceId,
      spanId: (k + 2).toString(16).padStart(16, '0'),
      parentSpanId: rootId,
      name: `execute_tool ${call.name}`,
      startTimeUnixNano: ns(10 + k * 10),
      endTimeUnixNano: ns(15 + k * 10),
      attributes: [
        str('gen_ai.operation.name', 'execute_tool'),
        str('gen_ai.tool.name', call.name),
        num('loop.cost_usd', 0.01),
        ...(call.args ? [str('gen_ai.tool.call.arguments', JSON.stringify(call.args))] : []),
        ...(call.result ? [str('gen_ai.tool.call.result', call.result)] : []),
        ...(call.httpStatus ? [int('http.response.status_code', call.httpStatus)] : []),
      ],
      ...(call.httpStatus ? { status: { code: 2, message: `HTTP ${call.httpStatus}` } } : {}),
    })),
  ];
  return { resourceSpans: [{ scopeSpans: [{ spans }] }] };
}

const poll = { name: 'job_status', args: { job: 7 }, result: 'running' };
const search = (requestId: string, at: string) => ({
  name: 'search',
  args: { q: 'orders', request_id: requestId, meta: { at } },
  result: 'no hits',
});
const fetchCall = (httpStatus?: number) => ({
  name: 'fetch',
  args: { url: 'https://x' },
  result: httpStatus ? 'Service Unavailable' : 'ok',
  ...(httpStatus ? { httpStatus } : {}),
});

const RUNS: Record<string, ReturnType<typeof run>> = {
  poller: run('poller', [poll, poll, poll]),
  'poller-unconfigured': run('poller-unconfigured', [poll, poll, poll]),
  searcher: run('searcher', [search('r1', '10:00'), search('r2', '10:01')]),
  'searcher-unconfigured': run('searcher-unconfigured', [
    search('r1', '10:00'),
    search('r2', '10:01'),
  ]),
  retrier: run('retrier', [fetchCall(503), fetchCall()]),
  hammer: run('hammer', [fetchCall(503), fetchCall(503), fetchCall()]),
  unrecorded: run('unrecorded', [{ name: 'deploy' }, { name: 'deploy' }, { name: 'deploy' }]),
};

describe.each(TEST_DATABASE_KINDS)('second-wave conventions through /v1/traces on %s', (kind) => {
  let server: TestServer;
  const read = new Map<string, { run: RunSummary; steps: StepJson[] }>();
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };

  beforeAll(async () => {
    server = await startTestServer(kind, {
      settings: loopSettings({
        agents: {
          poller: { pollingTools: ['job_status'] },
          searcher: { ignoreArgs: ['request_id', 'at'] },
        },
      }),
    });
    for (const body of Object.values(RUNS)) {
      const sent = await fetch(`${server.url}/v1/traces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(sent.status).toBe(200);
    }
    await server.settle();
    const { runs } = await get<{ runs: RunSummary[] }>(
      '/api/v1/runs?from=2000-01-01T00:00:00Z&to=2999-01-01T00:00:00Z&limit=100',
    );
    for (const summary of runs) {
      const { steps } = await get<{ steps: StepJson[] }>(`/api/v1/runs/${summary.id}/steps`);
      if (summary.agent) read.set(summary.agent, { run: summary, steps });
    }
  });
  afterAll(() => server?.close());

  const repeatOf = (agent: string) => read.get(agent)?.steps.map((s) => s.repeatOf);

  it('a poll from an unchanged state is waiting, for the agent whose pollingTools name it', () => {
    expect(repeatOf('poller')).toEqual([null, null, null]);
    expect(read.get('poller')?.run.flags.repeat).toBeNull();
    expect(repeatOf('poller-unconfigured')).toEqual([null, 1, 2]);
  });

  it('ignoreArgs: calls that differ only in request ids and timestamps are the same action', () => {
    expect(repeatOf('searcher')).toEqual([null, 1]);
    expect(repeatOf('searcher-unconfigured')).toEqual([null, null]);
    // The repeated call itself is the waste.
    expect(read.get('searcher')?.run.wastedUsd).toBeCloseTo(0.01, 10);
    expect(read.get('searcher-unconfigured')?.run.wastedUsd).toBe(0);
  });

  it('a retry after a transient failure is no repeat; the third identical attempt after two is', () => {
    expect(read.get('retrier')?.steps.map((s) => s.errorClass)).toEqual(['transient', null]);
    expect(repeatOf('retrier')).toEqual([null, null]);
    expect(repeatOf('hammer')).toEqual([null, null, 2]);
    expect(read.get('hammer')?.run.flags.repeat).toEqual({ step: 3, of: 2 });
  });

  it('tool calls whose arguments were not recorded are not the same action', () => {
    expect(read.get('unrecorded')?.steps.map((s) => [s.action, s.actionHash])).toEqual([
      ['deploy', null],
      ['deploy', null],
      ['deploy', null],
    ]);
    expect(read.get('unrecorded')?.run.flags.repeat).toBeNull();
  });
});

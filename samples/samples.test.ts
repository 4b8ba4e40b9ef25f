// The sample loops, sent by the demo through the real OTLP exporter to the real route handlers on
// a fresh database, and what each must show through the read API and the read models.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import { getRun } from '@/db/read/get-run';
import { expireRuns } from '@/db/write/expire-runs';
import { rawRows } from '@/db/test-database';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import type { ExitReasonGroup, RunSummary, StepJson } from '@/lib/api-types';
import { readPriceFile } from '@/lib/settings';
import { PriceTable } from '@/trajectory/pricing';
import { loadSampleRuns } from './demo';
import type { DemoSummary, DemoTarget } from './demo';
import { OSCILLATION_HAND_OVER } from './fix-oscillation';
import { exportHandOver } from './nightly-export';

const DAY = 86_400_000;
const prices = new PriceTable(readPriceFile('prices.json'));

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1] ?? 0;
}

describe.each(TEST_DATABASE_KINDS)('the sample loops on %s', (kind) => {
  let server: TestServer;
  let target: DemoTarget;
  let first: DemoSummary;
  const now = Date.now();
  const window = `from=${new Date(now - 60 * DAY).toISOString()}&to=${new Date(now + DAY).toISOString()}`;

  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server.url}${path}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };
  const run = async (id: string) => (await get<{ run: RunSummary }>(`/api/v1/runs/${id}`)).run;
  const steps = async (id: string) =>
    (await get<{ steps: StepJson[] }>(`/api/v1/runs/${id}/steps`)).steps;
  const detail = async (id: string) =>
    getRun(server.database.db, { projectId: server.projectId, runId: id });
  const list = async (query: string) =>
    (await get<{ runs: RunSummary[] }>(`/api/v1/runs?${window}&limit=500&${query}`)).runs;
  const guard = async (runId: string) => {
    const response = await fetch(`${server.url}/api/v1/guard`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ runId }),
    });
    return (await response.json()) as { decision: string; reasonCode: string; step: number };
  };

  beforeAll(async () => {
    server = await startTestServer(kind);
    server.runtime.prices = prices;
    target = {
      origin: server.url,
      tracesUrl: `${server.url}/v1/traces`,
      headers: { authorization: `Bearer ${server.key}` },
    };
    first = await loadSampleRuns(target, { now, prices });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends four weeks of runs of every sample, all in the past and all priced', async () => {
    expect(first).toMatchObject({
      runs: 78,
      alreadyLoaded: false,
      bySample: {
        'restart-loop': 12,
        'nightly-export': 2,
        'query-raw-migration': 40,
        'fix-oscillation': 4,
        'slow-stall': 3,
        'invoice-crawl': 17,
      },
    });
    const runs = await list('');
    expect(runs).toHaveLength(78);
    const starts = runs.map((r) => Date.parse(r.startedAt));
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(now - 28 * DAY);
    expect(Math.max(...runs.map((r) => Date.parse(r.endedAt ?? '')))).toBeLessThan(now);
    const weeks = new Set(starts.map((t) => Math.floor((t - now) / (7 * DAY))));
    expect(weeks.size).toBe(4);
    for (const r of runs) {
      expect(r.costUsd, r.id).toBeGreaterThan(0);
      expect((await detail(r.id))?.unpricedModels, r.id).toEqual([]);
    }
  });

  it('keeps every run through a retention sweep a day later, all in the default window', async () => {
    const { removed } = await expireRuns(server.database.db, { now: new Date(now + DAY) });
    expect(removed.get(server.projectId) ?? 0).toBe(0);
    const inDefaultWindow = await get<{ runs: RunSummary[] }>('/api/v1/runs?limit=500');
    expect(inDefaultWindow.runs).toHaveLength(78);
  });

  it('the restart loop repeats at its second restart: without the guard to its budget, with it stopped there', async () => {
    const unguarded = await run('demo-restart-loop-no-guard-01');
    const guarded = await run('demo-restart-loop-guard-01');
    expect(unguarded).toMatchObject({
      agent: 'ops-agent',
      variant: 'no-guard',
      exitCategory: 'budget_exhausted',
      exitKind: 'steps',
      stepCount: 12,
      verification: 'contradicted',
      flags: { repeat: { step: 3, of: 2 }, revisit: null, fabricatedSuccess: false },
    });
    expect(unguarded.wastedUsd).toBeGreaterThan(0);
    expect(guarded).toMatchObject({
      variant: 'guard',
      exitCategory: 'no_progress',
      exitReason: 'no_progress',
      stepCount: 3,
      flags: { repeat: { step: 3, of: 2 } },
    });
    expect(guarded.costUsd).toBeLessThan(unguarded.costUsd / 2);
    expect((await steps(guarded.id)).map((s) => [s.action, s.signals, s.repeatOf])).toEqual([
      ['check_health', [], null],
      ['restart_service', [], null],
      ['restart_service', ['repeat'], 2],
    ]);
    // The server's own guard would have stopped the unguarded run where the local one did.
    expect(await guard(unguarded.id)).toMatchObject({
      decision: 'terminate',
      reasonCode: 'call_limit_exceeded',
    });
    expect(await guard(guarded.id)).toMatchObject({ reasonCode: 'repeated_call', step: 3 });
    // When a restart does fix it (out of memory), the health check verifies it.
    expect(await run('demo-restart-loop-no-guard-03')).toMatchObject({
      exitCategory: 'goal_satisfied',
      verification: 'verified',
      stepCount: 2,
    });
  });

  it('the export job "SUCCEEDED" into an empty bucket and the run escalates with the exact hand-over', async () => {
    const exported = await run('demo-nightly-export-01');
    expect(exported).toMatchObject({
      agent: 'data-ops-agent',
      exitCategory: 'escalated',
      verification: 'contradicted',
      flags: { fabricatedSuccess: false },
    });
    const night = new Date(Date.parse(exported.startedAt) - DAY).toISOString().slice(0, 10);
    expect((await detail(exported.id))?.escalation).toBe(exportHandOver(night));
    expect(exportHandOver(night)).toBe(
      `Grant roles/storage.objectCreator on gs://acme-exports-v2 to sa-export@acme-data.iam.gserviceaccount.com, then re-run nightly-orders-export for ${night}.`,
    );
    const trail = await steps(exported.id);
    const ran = trail.find((s) => s.action === 'run_job');
    expect(ran?.verdictFields).toEqual({
      job_points_at_new_bucket: true,
      job_succeeded: true,
      file_in_new_bucket: false,
    });
    expect(trail.find((s) => s.action === 'write_test_object')?.errorClass).toBe('permission');
    expect(trail.at(-1)?.action).toBe('hand_over');
  });

  it('the uncontrolled migration costs more per run at p95 than the controlled one, and claims what it did not do', async () => {
    const uncontrolled = await list('agent=migration-agent&variant=uncontrolled');
    const controlled = await list('agent=migration-agent&variant=controlled');
    expect(uncontrolled).toHaveLength(20);
    expect(controlled).toHaveLength(20);
    const cost = (runs: RunSummary[]) => runs.map((r) => r.costUsd);
    expect(p95(cost(uncontrolled))).toBeGreaterThan(1.5 * p95(cost(controlled)));

    const count = (runs: RunSummary[], test: (r: RunSummary) => boolean) =>
      runs.filter(test).length;
    // Uncontrolled: circles and drift run to the step limit; unchecked claims are fabricated.
    expect(count(uncontrolled, (r) => r.exitKind === 'steps' && r.stepCount === 50)).toBe(7);
    expect(count(uncontrolled, (r) => r.flags.revisit !== null)).toBe(4);
    expect(count(uncontrolled, (r) => r.flags.fabricatedSuccess)).toBe(2);
    const fabricated = uncontrolled.find((r) => r.flags.fabricatedSuccess)!;
    expect(fabricated).toMatchObject({
      exitCategory: 'goal_satisfied',
      verification: 'contradicted',
    });
    expect(new Set((await steps(fabricated.id)).map((s) => s.stateHash)).size).toBe(1);
    // Controlled: the same tasks end by the controls, and no claim goes unchecked.
    const categories = (runs: RunSummary[]) =>
      runs.reduce<Record<string, number>>((acc, r) => {
        acc[r.exitCategory] = (acc[r.exitCategory] ?? 0) + 1;
        return acc;
      }, {});
    expect(categories(controlled)).toEqual({
      goal_satisfied: 10,
      escalated: 4,
      goal_drift: 3,
      tool_circuit_open: 2,
      no_progress: 1,
    });
    expect(count(controlled, (r) => r.flags.fabricatedSuccess)).toBe(0);
    expect(count(controlled, (r) => r.stepCount > 30)).toBe(0);
    const verifiedUnits = (runs: RunSummary[]) => runs.reduce((s, r) => s + r.verifiedUnits, 0);
    expect(verifiedUnits(controlled)).toBe(70);
    expect(verifiedUnits(uncontrolled)).toBe(77);
  });

  it('fix A / fix B revisits the state of two steps before: cycle 2', async () => {
    for (const id of ['demo-fix-oscillation-guard-01', 'demo-fix-oscillation-no-guard-01']) {
      expect((await run(id)).flags.revisit).toEqual({ step: 3, of: 1, cycleLength: 2 });
    }
    expect(await run('demo-fix-oscillation-guard-01')).toMatchObject({
      exitCategory: 'escalated',
      stepCount: 3,
    });
    expect((await detail('demo-fix-oscillation-guard-01'))?.escalation).toBe(OSCILLATION_HAND_OVER);
    expect(await run('demo-fix-oscillation-no-guard-01')).toMatchObject({
      exitCategory: 'budget_exhausted',
      exitKind: 'steps',
      stepCount: 8,
    });
    const trail = await steps('demo-fix-oscillation-guard-01');
    expect(trail.map((s) => s.revisitOf)).toEqual([null, null, 1]);
    expect(trail[0]?.verdictFields).toEqual({
      'formatDate › audit log lines are in UTC': false,
      'formatDate › keeps the caller’s offset': true,
    });
  });

  it('the slow stall shows only as a stall, and ends on its wall clock', async () => {
    for (const id of ['demo-slow-stall-01', 'demo-slow-stall-02', 'demo-slow-stall-03']) {
      const stalled = await run(id);
      expect(stalled).toMatchObject({
        agent: 'onboarding-agent',
        exitCategory: 'budget_exhausted',
        exitKind: 'deadline',
        flags: { stall: { step: 7 }, repeat: null, revisit: null },
      });
      expect(stalled.durationMs).toBeGreaterThanOrEqual(45 * 60_000);
      expect(stalled.wastedUsd).toBeGreaterThan(0);
    }
  });

  it('the paginated crawl has no signal and is verified', async () => {
    const crawls = await list('agent=invoice-crawler&variant=baseline');
    expect(crawls).toHaveLength(14);
    for (const crawl of crawls) {
      expect(crawl).toMatchObject({
        exitCategory: 'goal_satisfied',
        verification: 'verified',
        wastedUsd: 0,
        flags: {
          repeat: null,
          revisit: null,
          stall: null,
          toolCircuit: null,
          fabricatedSuccess: false,
          unexplainedStop: false,
        },
      });
      expect(crawl.verifiedUnits).toBe(crawl.stepCount - 1); // one page a step, then the check
    }
  });

  it('groups each month-end close of the crawler into a session of its runs', async () => {
    const { sessions } = await get<{
      sessions: { id: string; agent: string | null; runs: number; verifiedUnits: number }[];
    }>(`/api/v1/sessions?${window}&limit=50`);
    const closes = sessions.filter((s) => s.id.startsWith('invoice-close-'));
    expect(closes.map((s) => s.id).sort()).toEqual([1, 2, 3, 4].map((n) => `invoice-close-${n}`));
    expect(closes.reduce((n, s) => n + s.runs, 0)).toBe(14);
    for (const close of closes) {
      expect(close.agent).toBe('invoice-crawler');
      expect(close.verifiedUnits).toBeGreaterThan(0);
    }
    const { runs } = await get<{ runs: RunSummary[] }>('/api/v1/sessions/invoice-close-1');
    expect(runs.map((r) => r.id)).toEqual([1, 2, 3, 4].map((n) => `demo-invoice-crawl-0${n}`));
  });

  it('leaves the crawls run without the warehouse check unverified, for a person to check', async () => {
    const unchecked = await list('agent=invoice-crawler&variant=no-check');
    expect(unchecked).toHaveLength(3);
    for (const run of unchecked) {
      expect(run).toMatchObject({
        exitCategory: 'goal_satisfied',
        verification: 'unverified',
        verifiedUnits: 0,
      });
    }
  });

  it('gives the weekly report four weeks or more, and the migration variants a comparison to make', async () => {
    type Week = {
      week: string;
      group: string;
      runs: number;
      verifiedUnits: number;
      costUsd: number;
    };
    const { weeks } = await get<{ weeks: Week[] }>(
      `/api/v1/reports/weekly?${window}&groupBy=variant`,
    );
    expect(new Set(weeks.filter((w) => w.runs > 0).map((w) => w.week)).size).toBeGreaterThanOrEqual(
      4,
    );
    expect(weeks.reduce((n, w) => n + w.runs, 0)).toBe(78);
    const perUnit = (group: string) => {
      const rows = weeks.filter((w) => w.group === group);
      return (
        rows.reduce((s, w) => s + w.costUsd, 0) / rows.reduce((s, w) => s + w.verifiedUnits, 0)
      );
    };
    expect(perUnit('controlled')).toBeLessThan(perUnit('uncontrolled'));
  });

  it('loading the demo again adds nothing', async () => {
    const counts = async () => {
      const [row] = await rawRows(
        server.database.db,
        sql`select (select count(*) from spans where project_id = ${server.projectId}::uuid)::int as spans,
                   (select count(*) from runs where project_id = ${server.projectId}::uuid)::int as runs,
                   (select count(*) from steps where project_id = ${server.projectId}::uuid)::int as steps`,
      );
      return row;
    };
    const groups = () => get<{ groups: ExitReasonGroup[] }>(`/api/v1/exit-reasons?${window}`);
    const before = { counts: await counts(), groups: await groups(), runs: await list('') };
    const again = await loadSampleRuns(target, { now: now + 3 * 3_600_000, prices });
    expect(again).toEqual({ ...first, alreadyLoaded: true });
    expect(await counts()).toEqual(before.counts);
    expect(await groups()).toEqual(before.groups);
    expect(await list('')).toEqual(before.runs);
  });
});

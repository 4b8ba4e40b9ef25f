import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRetentionDays } from '../projects';
import { rawRows, TEST_DATABASE_KINDS } from '../test-database';
import { startTestServer } from '../../e2e/support/test-server';
import type { TestServer } from '../../e2e/support/test-server';
import { expireRuns } from './expire-runs';
import { storedAndRecomputedRollups } from './test-rollups';
import {
  ensureTimePartitions,
  listTimePartitions,
  partitionName,
  WEEK_MS,
  weekStartMs,
} from './time-partitions';

const DAY = 86_400_000;
const NS = 1_000_000n;

describe('week arithmetic', () => {
  it('starts weeks on Monday 00:00 UTC, at and around the boundary', () => {
    const monday = Date.parse('2026-11-30T00:00:00Z');
    expect(weekStartMs(monday)).toBe(monday);
    expect(weekStartMs(monday - 1)).toBe(monday - WEEK_MS);
    expect(weekStartMs(monday + WEEK_MS - 0.001)).toBe(monday);
    expect(weekStartMs(0)).toBe(Date.parse('1969-12-29T00:00:00Z'));
    expect(partitionName('spans', monday)).toBe('spans_w20261130');
  });
});

describe.each(TEST_DATABASE_KINDS)('weekly partitions of spans and steps on %s', (kind) => {
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

  /** A run of one agent span and `steps` step spans, all starting at `startNs` and after. */
  async function sendRun(runId: string, startNs: bigint, steps = 2): Promise<string> {
    const traceId = `7a${String(++traces).padStart(30, '0')}`;
    const at = (k: number) => String(startNs + BigInt(k) * 1000n * NS);
    const spans = [
      {
        traceId,
        spanId: '0000000000000001',
        name: 'agent',
        startTimeUnixNano: at(0),
        endTimeUnixNano: at(steps + 1),
        attributes: [
          { key: 'loop.run.id', value: { stringValue: runId } },
          { key: 'loop.exit.reason', value: { stringValue: 'goal_met' } },
        ],
      },
      ...Array.from({ length: steps }, (_, k) => ({
        traceId,
        spanId: String(k + 2).padStart(16, '0'),
        parentSpanId: '0000000000000001',
        name: 'step',
        startTimeUnixNano: at(k + 1),
        endTimeUnixNano: at(k + 1),
        attributes: [
          { key: 'loop.step', value: { intValue: String(k + 1) } },
          { key: 'loop.action', value: { stringValue: `act-${k}` } },
        ],
      })),
    ];
    const body = JSON.stringify({
      resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }],
    });
    // Twice: an exporter's retry is the same span, stored once.
    for (let k = 0; k < 2; k++) {
      const response = await call('/v1/traces', { method: 'POST', body });
      expect(response.status).toBe(200);
    }
    return traceId;
  }

  /** Where a run's spans and steps are kept: partition name → rows. */
  async function placement(runId: string) {
    const rows = await rawRows(
      server.database.db,
      sql`select 'spans' as t, tableoid::regclass::text as part, count(*)::int as n from spans
          where project_id = ${server.projectId}::uuid and trace_id in (select trace_id
            from trace_runs where project_id = ${server.projectId}::uuid and run_id = ${runId})
          group by 2
        union all
        select 'steps', tableoid::regclass::text, count(*)::int from steps
          where project_id = ${server.projectId}::uuid and run_id = ${runId} group by 2
        order by 1, 2`,
    );
    return rows.map((r) => `${String(r.t)}:${String(r.part)}:${String(r.n)}`);
  }

  async function readable(runId: string): Promise<number> {
    const run = await call(`/api/v1/runs/${encodeURIComponent(runId)}`);
    expect(run.status).toBe(200);
    const steps = await call(`/api/v1/runs/${encodeURIComponent(runId)}/steps`);
    expect(steps.status).toBe(200);
    return ((await steps.json()) as { steps: unknown[] }).steps.length;
  }

  it('has the retention window and two weeks ahead in place from the start', async () => {
    const now = Date.now();
    for (const table of ['spans', 'steps'] as const) {
      const weeks = (await listTimePartitions(server.database.db, table)).map((p) => p.fromMs);
      expect(weeks).toContain(weekStartMs(now - 30 * DAY));
      expect(weeks).toContain(weekStartMs(now));
      expect(weeks).toContain(weekStartMs(now) + 2 * WEEK_MS);
      expect(weeks.at(-1)).toBe(weekStartMs(now) + 2 * WEEK_MS);
    }
  });

  it('stores each span once in its week, and a start at a type’s edge in DEFAULT, all readable', async () => {
    const now = BigInt(Date.now()) * NS;
    const week = BigInt(weekStartMs(Date.now()));
    const cases: [string, bigint, string][] = [
      ['part-now', now, partitionName('spans', Number(week))],
      // The last nanosecond before this week, then the first of it.
      [
        'part-edge-before',
        week * NS - 3_000_000_000n - 1n,
        partitionName('spans', Number(week) - WEEK_MS),
      ],
      ['part-edge-at', week * NS, partitionName('spans', Number(week))],
      ['part-epoch', 1n, 'spans_default'],
      ['part-far-future', 18_446_744_073_709_551_615n - 10_000_000_000n, 'spans_default'],
    ];
    for (const [runId, start] of cases) await sendRun(runId, start);
    await server.settle();
    for (const [runId, , part] of cases) {
      const where = await placement(runId);
      expect(
        where.filter((w) => w.startsWith('spans:')),
        runId,
      ).toEqual([`spans:${part}:3`]);
      expect(where.filter((w) => w.startsWith('steps:')).length, runId).toBeGreaterThan(0);
      expect(await readable(runId), runId).toBe(2);
    }
    const list = await call('/api/v1/runs?limit=100&from=1970-01-01T00:00:00Z');
    const ids = ((await list.json()) as { runs: { id: string }[] }).runs.map((r) => r.id);
    // The list's window ends now: every run but the one that claims to start in 2554.
    for (const [runId] of cases.slice(0, 4)) expect(ids).toContain(runId);
  });

  it('moves the rows DEFAULT holds for a week into its partition when the week is created', async () => {
    // A clock ten weeks ahead: no partition yet, so DEFAULT.
    const ahead = Date.now() + 10 * WEEK_MS;
    await sendRun('part-ahead', BigInt(ahead) * NS, 3);
    await server.settle();
    expect((await placement('part-ahead')).every((w) => w.includes('_default'))).toBe(true);
    const before = await rawRows(
      server.database.db,
      sql`select trace_id, span_id, start_ms, attributes from spans order by 1, 2, 3`,
    );
    const upkeep = await ensureTimePartitions(server.database.db, {
      now: new Date(ahead),
      daysBack: 0,
    });
    expect(upkeep.busy).toBe(false);
    expect(upkeep.created).toContain(partitionName('spans', weekStartMs(ahead)));
    // The spans and steps of that run, and nothing else: the epoch and far-future rows stay.
    expect(upkeep.moved).toBe(4 + 3);
    expect(await placement('part-ahead')).toEqual([
      `spans:${partitionName('spans', weekStartMs(ahead))}:4`,
      `steps:${partitionName('steps', weekStartMs(ahead))}:3`,
    ]);
    const after = await rawRows(
      server.database.db,
      sql`select trace_id, span_id, start_ms, attributes from spans order by 1, 2, 3`,
    );
    expect(after).toEqual(before);
    expect(await readable('part-ahead')).toBe(3);
    expect(await placement('part-epoch')).toContain('spans:spans_default:3');
    // Done once: a second upkeep finds every week in place.
    const again = await ensureTimePartitions(server.database.db, {
      now: new Date(ahead),
      daysBack: 0,
    });
    expect(again).toEqual({ created: [], moved: 0, busy: false });
  });

  it('drops weeks older than every project’s retention whole and deletes the rest by key', async () => {
    const now = Date.now();
    // Weeks 60 days back exist (as a longer retention would have kept them).
    await ensureTimePartitions(server.database.db, { daysBack: 60 });
    const oldWeek = weekStartMs(now - 45 * DAY);
    await sendRun('ret-45', BigInt(now - 45 * DAY) * NS);
    await sendRun('ret-12', BigInt(now - 12 * DAY) * NS);
    await sendRun('ret-2', BigInt(now - 2 * DAY) * NS);
    // Runs in DEFAULT at a type's edges, one past retention and one not: this test's own.
    await sendRun('ret-epoch', 1n);
    await sendRun('ret-far-future', 18_446_744_073_709_551_615n - 10_000_000_000n);
    const other = await server.newProject('partitions-other');
    await server.settle();
    expect(await placement('ret-45')).toContain(`spans:${partitionName('spans', oldWeek)}:3`);

    // This project keeps 10 days, the other the default 30: weeks ending 30 days back go whole.
    await setRetentionDays(server.database.db, 'default', 10);
    const outcome = await expireRuns(server.database.db);
    expect(outcome.busy).toBe(false);
    expect(outcome.droppedPartitions).toContain(partitionName('spans', oldWeek));
    expect(outcome.droppedPartitions).toContain(partitionName('steps', oldWeek));
    for (const name of outcome.droppedPartitions) {
      const week = Date.UTC(
        Number(name.slice(-8, -4)),
        Number(name.slice(-4, -2)) - 1,
        Number(name.slice(-2)),
      );
      expect(week + WEEK_MS).toBeLessThanOrEqual(now - 30 * DAY);
    }
    const left = (await listTimePartitions(server.database.db, 'spans')).map((p) => p.fromMs);
    expect(left).not.toContain(oldWeek);
    expect(left).toContain(weekStartMs(now - 12 * DAY));

    // ret-12 was older than 10 days: deleted by key from a week that stays. ret-2 stays whole,
    // as do the DEFAULT-stored edge runs' rows of those that are still in retention.
    expect(await placement('ret-45')).toEqual([]);
    expect(await placement('ret-12')).toEqual([]);
    expect(await readable('ret-2')).toBe(2);
    // The 1970 run was past retention: its DEFAULT rows went by key; the far-future one stays.
    expect(await placement('ret-epoch')).toEqual([]);
    expect(await placement('ret-far-future')).toContain('spans:spans_default:3');
    for (const id of ['ret-45', 'ret-12', 'ret-epoch']) {
      expect((await call(`/api/v1/runs/${id}`)).status).toBe(404);
    }
    for (const projectId of [server.projectId, other.projectId]) {
      const { stored, recomputed } = await storedAndRecomputedRollups(
        server.database.db,
        projectId,
      );
      expect(stored).toEqual(recomputed);
    }
    // Nothing more to drop or delete.
    const again = await expireRuns(server.database.db);
    expect(again.removed.size).toBe(0);
    expect(again.droppedPartitions).toEqual([]);
  });
});

// The cost of retention: a project of N steps over 35 days (the reads benchmark's dataset), its
// oldest week expired by the retention sweep the server runs (db/write/expire-runs.ts), and
// reads timed before and while it runs. `npm run bench -- retention` (10M steps; `--quick` tiny).
import { sql } from 'drizzle-orm';
import { expireRuns, retentionBatch } from '../../db/write/expire-runs';
import { rawRows } from '../../db/test-database';
import { fillDataset, openBenchDatabase } from '../reads/fill';
import { readCases } from '../reads/cases';
import type { ReadCase } from '../reads/cases';
import { percentile, time } from '../reads/measure';
import { fmtSteps } from '../reads/index';
import { row } from '../shared/report';
import { lastThursdayNoonMs } from '../../trajectory/report-weeks';
import type { BenchOptions, BenchRow, BenchSection } from '../shared/report';

const SPAN_DAYS = 35;
// The reads a dashboard makes most: the runs list's first page and the exit-reason groups.
const TIMED_READS = [/^runs list by startedAt, 7 d, first page/, /^exit-reason groups, 7 d/];

export async function run(
  options: BenchOptions & { retentionSteps?: number },
): Promise<BenchSection> {
  const steps = options.retentionSteps ?? (options.quick ? 20_000 : 10_000_000);
  const rows: BenchRow[] = [];
  const notes = [
    `A project of ${fmtSteps(steps)} steps over ${SPAN_DAYS} days ending at the last Thursday noon UTC, so the oldest week splits alike at every run (the reads benchmark's dataset: runs and steps by COPY, rollups rebuilt, VACUUM ANALYZE), its retention set to ${SPAN_DAYS - 7} days and swept once as the server sweeps: the oldest week goes, 500 runs a transaction on Postgres and 50 on PGlite (whose one engine serves reads between them), with every rollup's share; steps in weekly partitions that end before the cutoff are not deleted row by row but dropped with their partition at the end of the sweep, the rest by key. spans and trace_runs are not filled (the reads dataset has none): their deletes, by key too, are not in these times.`,
    'Reads timed one after another on another connection of the same pool: before the sweep (after warm-up), then for as long as it runs.',
    ...(options.quick ? ['Quick run: tiny sizes; its times mean nothing.'] : []),
  ];
  for (const kind of options.databases) {
    options.log(`retention ${kind}: filling ${fmtSteps(steps)} steps`);
    const bench = await openBenchDatabase(kind, { serverUrl: options.postgresUrl, onDisk: true });
    try {
      // Ending at the last Thursday noon, the oldest week is the same split at every run: from
      // Thursday noon to Monday in the oldest weekly partition (dropped whole), the rest of the
      // expired week deleted by key. Ending at the run's moment, a run minutes before Monday
      // 00:00 UTC left that partition a few minutes of steps, and at a small size none.
      const endMs = lastThursdayNoonMs(Date.now());
      const fill = await fillDataset(bench, {
        steps,
        endMs,
        spanDays: SPAN_DAYS,
        seed: 7,
        probeSteps: options.quick ? 100 : 1000,
      });
      const db = bench.handle.db;
      const cases = (await readCases(db, fill.projectId, endMs, 100)).filter((c) =>
        TIMED_READS.some((name) => name.test(c.name)),
      );
      const before = new Map<string, number>();
      for (const c of cases) {
        const timing = await time(() => c.run(db), {
          warmup: 3,
          iterations: options.quick ? 3 : 25,
        });
        before.set(c.name, timing.p50);
      }
      await db.execute(
        sql`update projects set retention_days = ${SPAN_DAYS - 7} where id = ${fill.projectId}::uuid`,
      );
      const stepsBefore = await countSteps(bench.handle.db, fill.projectId);
      const perPartition = await rawRows(
        db,
        sql`select tableoid::regclass::text as name, count(*)::bigint as n from steps group by 1`,
      );
      options.log(`retention ${kind}: ${fill.runs} runs, ${stepsBefore} steps; sweeping`);
      let sweeping = true;
      const started = performance.now();
      const sweep = expireRuns(db, {
        now: new Date(endMs),
        batch: retentionBatch(bench.handle.kind),
      }).finally(() => (sweeping = false));
      const during = await readWhile(cases, db, () => sweeping);
      const outcome = await sweep;
      const seconds = (performance.now() - started) / 1000;
      const removedRuns = outcome.removed.get(fill.projectId) ?? 0;
      const removedSteps = stepsBefore - (await countSteps(db, fill.projectId));
      const dropped = new Set(outcome.droppedPartitions);
      const droppedSteps = perPartition
        .filter((p) => dropped.has(String(p.name)))
        .reduce((sum, p) => sum + Number(p.n), 0);
      rows.push(
        row(
          `${kind}: runs / steps expired (the oldest week of ${fmtSteps(steps)})`,
          `${removedRuns} / ${removedSteps}`,
        ),
        row(
          `${kind}: of those steps, dropped with their weekly partition / deleted by key`,
          `${droppedSteps} / ${removedSteps - droppedSteps} (${outcome.droppedPartitions.join(', ') || 'no partition'})`,
        ),
        row(`${kind}: time to expire them`, Math.round(seconds * 10) / 10, 's'),
        row(`${kind}: steps expired per second`, Math.round(removedSteps / seconds), 'steps/s'),
      );
      for (const c of cases) {
        const samples = [...(during.get(c.name) ?? [])].sort((a, b) => a - b);
        rows.push(
          row(
            `${kind}: ${c.name}: p50 before / p50, p99 during (${samples.length} reads)`,
            `${fmt(before.get(c.name))} / ${fmt(percentile(samples, 50))}, ${fmt(percentile(samples, 99))}`,
            'ms',
          ),
        );
      }
    } catch (error) {
      // One database's failure leaves the other's numbers standing.
      options.log(`retention ${kind} failed: ${(error as Error).stack ?? String(error)}`);
      rows.push({ metric: `${kind}: retention failed`, value: 'error', unit: '', pass: false });
      notes.push(`${kind}: ${(error as Error).message}`);
    } finally {
      await bench.close();
    }
  }
  return { title: `Retention: one week of ${fmtSteps(steps)} steps expired`, rows, notes };
}

async function readWhile(
  cases: readonly ReadCase[],
  db: Parameters<ReadCase['run']>[0],
  going: () => boolean,
): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  while (going()) {
    for (const c of cases) {
      const t0 = performance.now();
      await c.run(db);
      samples.get(c.name)?.push(performance.now() - t0);
    }
  }
  return samples;
}

async function countSteps(db: Parameters<ReadCase['run']>[0], projectId: string): Promise<number> {
  const [counted] = await rawRows(
    db,
    sql`select count(*)::bigint as n from steps where project_id = ${projectId}::uuid`,
  );
  return Number(counted?.n ?? 0);
}

const fmt = (ms: number | undefined) =>
  ms === undefined || Number.isNaN(ms) ? '—' : ms < 10 ? ms.toFixed(2) : ms.toFixed(0);

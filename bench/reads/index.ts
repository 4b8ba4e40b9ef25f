// Part 3 of the benchmark: the dashboard's and the API's reads at 100k and at 10M steps. Each
// size gets a fresh database filled with COPY — the same 35 days, denser, since a bigger user
// looks at the same last 24 h / 7 d / 30 d — then every read is timed as the page or route calls
// it, on every size in turns, and explained. Target (docs/architecture.md): each read at 10M
// within 2 × its time at 100k.
//   npx tsx bench/reads/index.ts [--sizes=100000,10000000] [--db=postgres,pglite] [--quick]
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchOptions, formatReport, machineLine, row, targetRow } from '../shared/report';
import type { BenchOptions, BenchRow, BenchSection, DatabaseKind } from '../shared/report';
import { sql } from 'drizzle-orm';
import { readCases } from './cases';
import type { ReadCase } from './cases';
import type { DatasetSpec } from './dataset';
import { explain, recordingDatabase } from './explain';
import type { PlanReport } from './explain';
import { fillDataset, openBenchDatabase } from './fill';
import type { BenchDatabase, FillResult } from './fill';
import { timeInTurns } from './measure';
import type { Timing } from './measure';

export interface ReadSettings {
  /** Steps per dataset; the ratio is largest ÷ smallest. */
  sizes: number[];
  warmup: number;
  iterations: number;
  /** Steps of the run whose trajectory is read. */
  probeSteps: number;
  spanDays: number;
  seed: number;
  /** The datasets' "now": one instant for every size, so the windows have the same edges. */
  nowMs: number;
  maxRatio: number;
}

export type ReadBenchOptions = BenchOptions & { reads?: Partial<ReadSettings> };

interface SizeResult {
  steps: number;
  fill: FillResult;
  timings: Map<string, Timing>;
  plans: Map<string, PlanReport>;
}

export function readSettings(options: ReadBenchOptions): ReadSettings {
  const quick = options.quick;
  return {
    sizes: quick ? [2_000, 20_000] : [100_000, 10_000_000],
    warmup: quick ? 1 : 3,
    iterations: quick ? 3 : 25,
    probeSteps: quick ? 100 : 1000,
    spanDays: 35,
    seed: 7,
    nowMs: Math.floor(Date.now() / 1000) * 1000,
    maxRatio: 2,
    ...options.reads,
  };
}

export const fmtSteps = (n: number) =>
  n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n);

export async function run(options: ReadBenchOptions): Promise<BenchSection> {
  const settings = readSettings(options);
  const sizes = [...settings.sizes].sort((a, b) => a - b);
  const rows: BenchRow[] = [];
  const notes: string[] = [
    `Datasets: ${sizes.map(fmtSteps).join(' and ')} steps over the same ${settings.spanDays} days ending now: the bigger one is a denser stream read through the same windows (last 24 h, 7 d, 30 d, both edges inside an hour). ~20 steps per run (log-normal, 1–400), 8 agents of uneven volume, A/B variants on 4, every exit category, a daily rhythm; one ${settings.probeSteps}-step run whose trajectory is read. runs and steps by COPY (the steps' primary key built after), the rollups (weekly_rollups, run_rollups, run_category_rollups, run_agent_rollups) by the maintenance code's own aggregation of the copied runs, then VACUUM ANALYZE. spans are not filled: no timed read touches them.`,
    ...(options.quick
      ? [
          'Quick run: tiny sizes and few calls, to check the part works; its times and ratios mean nothing.',
        ]
      : []),
    `Each read: ${settings.warmup} warm-up calls, then ${settings.iterations} timed calls through the read model the page or route calls (drizzle, the app's pool), warm cache; every size filled first (then a CHECKPOINT), and each read's calls taken on the sizes in turns (small, large, large, small…), so the ratio compares calls made side by side. Ratios are of p50s.`,
  ];
  for (const kind of options.databases) {
    report(
      kind,
      await measureSizes(kind, sizes, settings, options),
      rows,
      notes,
      settings.maxRatio,
    );
  }
  return { title: `Reads: ${sizes.map(fmtSteps).join(' vs ')} steps`, rows, notes };
}

interface FilledSize {
  steps: number;
  bench: BenchDatabase;
  fill: FillResult;
  cases: Map<string, ReadCase>;
}

/**
 * Every size filled first, then each read timed on all of them in turns: a ratio of two times
 * taken minutes apart also measures what the machine did in between (the larger fill's
 * writeback, for one), and this one should not.
 */
async function measureSizes(
  kind: DatabaseKind,
  sizes: readonly number[],
  settings: ReadSettings,
  options: ReadBenchOptions,
): Promise<SizeResult[]> {
  const filled: FilledSize[] = [];
  try {
    for (const steps of sizes) filled.push(await fillSize(kind, steps, settings, options));
    for (const size of filled) await size.bench.handle.db.execute(sql`checkpoint`);
    options.log(`reads ${kind}: timing`);
    const results: SizeResult[] = filled.map(({ steps, fill }) => ({
      steps,
      fill,
      timings: new Map(),
      plans: new Map(),
    }));
    const iterations = { warmup: settings.warmup, iterations: settings.iterations };
    for (const name of filled[0]!.cases.keys()) {
      const works = filled.map((size) => {
        const c = size.cases.get(name);
        if (!c) throw new Error(`read "${name}" has no case at ${fmtSteps(size.steps)}`);
        return () => c.run(size.bench.handle.db);
      });
      const timings = await timeInTurns(works, iterations);
      for (const [k, size] of filled.entries()) {
        results[k]!.timings.set(name, timings[k]!);
        results[k]!.plans.set(name, await worstPlan(size.bench, size.cases.get(name)!));
      }
    }
    return results;
  } finally {
    for (const size of filled) await size.bench.close();
  }
}

async function fillSize(
  kind: DatabaseKind,
  steps: number,
  settings: ReadSettings,
  options: ReadBenchOptions,
): Promise<FilledSize> {
  options.log(`reads ${kind}: filling ${fmtSteps(steps)} steps`);
  // PGlite in a data folder, as `npm start` runs it (and a 10M database would not fit in memory).
  const bench = await openBenchDatabase(kind, { serverUrl: options.postgresUrl, onDisk: true });
  try {
    const spec: DatasetSpec = {
      steps,
      endMs: settings.nowMs,
      spanDays: settings.spanDays,
      seed: settings.seed,
      probeSteps: settings.probeSteps,
    };
    const fill = await fillDataset(bench, spec);
    options.log(
      `reads ${kind}: ${fill.runs} runs, ${fill.steps} steps in ${fill.seconds.toFixed(0)} s`,
    );
    const cases = await readCases(bench.handle.db, fill.projectId, spec.endMs, spec.probeSteps);
    return { steps, bench, fill, cases: new Map(cases.map((c) => [c.name, c])) };
  } catch (error) {
    await bench.close();
    throw error;
  }
}

/** The read's statements as it sends them, explained; the one that scans most stands for it. */
async function worstPlan(bench: BenchDatabase, c: ReadCase): Promise<PlanReport> {
  const recording = recordingDatabase(bench.handle);
  await c.run(recording.db);
  let worst: PlanReport | undefined;
  for (const query of recording.queries) {
    const plan = await explain(bench.handle, query);
    if (!worst || plan.scanned > worst.scanned) worst = plan;
  }
  if (!worst) throw new Error(`read "${c.name}" sent no statement`);
  return worst;
}

function report(
  kind: DatabaseKind,
  results: SizeResult[],
  rows: BenchRow[],
  notes: string[],
  maxRatio: number,
): void {
  const small = results[0]!;
  const large = results[results.length - 1]!;
  for (const r of results) {
    rows.push(
      row(
        `${kind} ${fmtSteps(r.steps)}: runs, steps (fill time)`,
        `${r.fill.runs.toLocaleString('en-US')} runs, ${r.fill.steps.toLocaleString('en-US')} steps (${r.fill.seconds.toFixed(0)} s)`,
      ),
    );
  }
  for (const name of small.timings.keys()) {
    const p = (r: SizeResult) => r.timings.get(name)!;
    const sizes = results.map((r) => `${p(r).p50.toFixed(2)} / ${p(r).p95.toFixed(2)}`);
    rows.push(
      row(
        `${kind} ${name}: p50 / p95 at ${results.map((r) => fmtSteps(r.steps)).join(', ')}`,
        sizes.join(', '),
        'ms',
      ),
    );
    if (results.length > 1) {
      rows.push(
        targetRow(
          `${kind} ${name}: ${fmtSteps(large.steps)} ÷ ${fmtSteps(small.steps)}`,
          p(large).p50 / p(small).p50,
          { atMost: maxRatio },
        ),
      );
    }
  }
  // Every read whose statement scans more rows than it returns, at the largest size: a line
  // each, and the plan of the costliest of each kind of read (the windows share a plan shape).
  const kinds = new Map<string, [string, PlanReport]>();
  const lines: string[] = [];
  for (const [name, plan] of large.plans) {
    if (plan.scanned <= plan.returned) continue;
    lines.push(
      `${name}: scans ${plan.scanned} rows for ${plan.returned} (heap fetches ${plan.heapFetches}, buffers hit ${plan.sharedHit} read ${plan.sharedRead})`,
    );
    const family = name.replace(/, (24 h|7 d|30 d)/, '').replace(/, (first|middle) page/, '');
    const known = kinds.get(family);
    if (!known || plan.scanned > known[1].scanned) kinds.set(family, [name, plan]);
  }
  if (lines.length > 0) {
    notes.push(
      `${kind} ${fmtSteps(large.steps)}, statements that scan more rows than they return (rows read by scan nodes, kept or filtered out; index entries a btree skips inside the index are not counted):\n  ${lines.join('\n  ')}`,
    );
  }
  for (const [name, plan] of kinds.values()) {
    notes.push(
      `${kind} ${fmtSteps(large.steps)} — EXPLAIN (ANALYZE, BUFFERS) of ${name}:\n\n    ${plan.text.split('\n').join('\n    ')}`,
    );
  }
}

function parseArgs(argv: string[]): ReadBenchOptions {
  const reads: Partial<ReadSettings> = {};
  let quick = false;
  let databases: DatabaseKind[] = ['postgres'];
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'sizes') reads.sizes = value.split(',').map(Number);
    else if (key === 'db') databases = value.split(',') as DatabaseKind[];
    else if (key === 'iterations') reads.iterations = Number(value);
    else if (key === 'quick') quick = true;
    else throw new Error(`unknown option ${arg}`);
  }
  return {
    ...benchOptions({ quick, databases, log: (m) => console.error(`[bench] ${m}`) }),
    reads,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const load = loadavg()[0]!.toFixed(2);
  const section = await run(parseArgs(process.argv.slice(2)));
  console.log(
    formatReport(
      [section],
      `${machineLine()}; 1-min load average ${load} at the start, ${loadavg()[0]!.toFixed(2)} at the end`,
    ),
  );
}

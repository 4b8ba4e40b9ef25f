// Part 1, ingest: the server (built, its own process) driven by the real OTLP/protobuf exporter
// from another process at 1, 2, 4, … exporters in flight until throughput stops rising; then, on
// the same database, the limits it is measured against: COPY of the same rows and the write
// stage alone. Postgres server and PGlite alike; the ratios are the targets of docs/architecture.md.
import { ensureProject } from '../../db/projects';
import { createBenchDatabase } from '../shared/databases';
import type { BenchDatabase } from '../shared/databases';
import { cpuWindow, measureLater, sampleRss, waitForQuiet } from '../shared/process-stats';
import { row, targetRow } from '../shared/report';
import type { BenchOptions, BenchRow, BenchSection, DatabaseKind } from '../shared/report';
import { startBuiltServer, startInProcessServer } from '../shared/server';
import type { BenchServer } from '../shared/server';
import { spoolEmpty } from '../shared/spool';
import { capturePayloads, decodePayloads } from './capture';
import { measureCopy, measureWriteStage } from './limits';
import { startLoadGenerator } from './load-driver';
import type { LoadGenerator } from './load-driver';
import { measureTwoServers } from './two-servers';
import type { TwoServerResult } from './two-servers';

export const BATCH_SIZE = 512;
export const STEPS_PER_RUN = 12;

const SIZES = {
  full: {
    ladder: [1, 2, 4, 8, 16, 32],
    warmupMs: 3000,
    windowMs: 15_000,
    limitBatches: 100,
    repeats: 3,
  },
  quick: { ladder: [1, 2], warmupMs: 200, windowMs: 1000, limitBatches: 3, repeats: 1 },
};
const sizesFor = (options: BenchOptions) => (options.quick ? SIZES.quick : SIZES.full);

/**
 * A level is sustainable only if the deriver keeps up with it: every run derived within this
 * long of the last answer (the deriver also wakes every second on its own). Faster levels only
 * grow the queue of runs to derive.
 */
export const DERIVE_LAG_LIMIT_MS = 2000;

/** End-to-end ingest ÷ COPY of the same rows, by database (issue 15; docs/architecture.md). */
const INGEST_OF_COPY: Record<DatabaseKind, number> = { postgres: 0.35, pglite: 0.3 };

export interface LevelResult {
  lanes: number;
  spansPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  peakRssMb: number;
  /** Last export answered → every marked run derived. */
  deriveLagMs: number;
  generatorCores: number;
  generateCores: number;
  serverCores: number;
  postgresCores: number;
  failures: number;
}

export interface KindResult {
  kind: DatabaseKind;
  levels: LevelResult[];
  /** The fastest level the deriver kept up with (else the one it lagged least behind). */
  best: LevelResult;
  /** The fastest level of all, when it is not `best`. */
  peak: LevelResult | null;
  acked: number;
  stored: number;
  dirtyLeft: number;
  copyRowsPerSecond: number;
  writeSequential: number;
  writeConcurrent: number | null;
  writers: number;
  limitRows: number;
  /** Two built servers on this database (Postgres only; not in the in-process smoke). */
  twoServers: TwoServerResult | null;
}

export async function run(options: BenchOptions): Promise<BenchSection> {
  const results: KindResult[] = [];
  for (const kind of options.databases) {
    const result = await measureKind(kind, options);
    options.shared.sustainableSpansPerSecond[kind] = result.best.spansPerSecond;
    delete options.shared.sustainableFrom?.[kind];
    options.shared.bestLanes[kind] = result.best.lanes;
    results.push(result);
  }
  return section(results, options);
}

async function measureKind(kind: DatabaseKind, options: BenchOptions): Promise<KindResult> {
  const log = (message: string) => options.log(`ingest/${kind}: ${message}`);
  const database = await createBenchDatabase(kind, options.postgresUrl);
  try {
    const { levels, acked, stored, dirtyLeft } = await measureEndToEnd(database, options, log);
    const fastest = (list: LevelResult[]) =>
      list.reduce((a, b) => (b.spansPerSecond > a.spansPerSecond ? b : a));
    const keptUp = levels.filter((l) => l.deriveLagMs <= DERIVE_LAG_LIMIT_MS);
    const best =
      keptUp.length > 0
        ? fastest(keptUp)
        : levels.reduce((a, b) => (b.deriveLagMs < a.deriveLagMs ? b : a));
    const peak = fastest(levels) === best ? null : fastest(levels);
    // Before the limits, which empty the tables: the second run's spans count on their own.
    const twoServers =
      kind === 'postgres' && options.server === 'built'
        ? await measureTwoServersAfter(database, best.lanes, options, log)
        : null;
    const limits = await measureLimits(database, options, log);
    return { kind, levels, best, peak, acked, stored, dirtyLeft, twoServers, ...limits };
  } finally {
    await database.drop();
  }
}

async function measureEndToEnd(
  database: BenchDatabase,
  options: BenchOptions,
  log: (message: string) => void,
) {
  const server =
    options.server === 'built'
      ? await startBuiltServer(database)
      : await startInProcessServer(database.kind);
  const levels: LevelResult[] = [];
  let acked = 0;
  let generator: LoadGenerator | null = null;
  try {
    generator = await startLoadGenerator();
    const { ladder } = sizesFor(options);
    let best = 0;
    let flat = 0;
    for (const lanes of ladder) {
      const level = await driveLevel(server, generator, lanes, options);
      acked += level.acked;
      levels.push(level.result);
      const r = level.result;
      log(
        `${lanes} exporter(s): ${Math.round(r.spansPerSecond)} spans/s, p50 ${Math.round(r.p50Ms)} ms, p99 ${Math.round(r.p99Ms)} ms, RSS ${Math.round(r.peakRssMb)} MB, derive lag ${(r.deriveLagMs / 1000).toFixed(1)} s`,
      );
      // Throughput stopped rising: two levels in a row without 5% over the best so far (one
      // could be noise from anything else on the machine).
      flat = r.spansPerSecond < best * 1.05 ? flat + 1 : 0;
      best = Math.max(best, r.spansPerSecond);
      if (!options.quick && flat >= 2) break;
    }
    await generator.close();
    await server.stop();
    const stored = Number((await server.query('select count(*)::int as n from spans'))[0]?.n);
    const dirtyLeft = (await server.dirtyRuns()) ?? Number.NaN;
    return { levels, acked, stored, dirtyLeft };
  } finally {
    await generator?.close();
    await server.stop();
    await server.close();
  }
}

async function driveLevel(
  server: BenchServer,
  generator: LoadGenerator,
  lanes: number,
  options: BenchOptions,
): Promise<{ result: LevelResult; acked: number }> {
  const { warmupMs, windowMs } = sizesFor(options);
  const rss = sampleRss(server.pid);
  const cpu = measureLater(warmupMs, windowMs, () =>
    cpuWindow(server.pid, server.kind === 'postgres'),
  );
  const result = await generator.run({
    type: 'closed',
    url: server.url,
    key: server.key,
    lanes,
    batchSize: BATCH_SIZE,
    stepsPerRun: STEPS_PER_RUN,
    warmupMs,
    durationMs: windowMs,
  });
  const busy = cpu.result();
  const deriveLagMs = await deriverLag(server, result.lastAnswerAt);
  const memory = rss.stop();
  return {
    acked: result.spansAcked,
    result: {
      lanes,
      spansPerSecond: (result.spansInWindow * 1000) / result.windowMs,
      p50Ms: result.exportLatencyMs.p50,
      p99Ms: result.exportLatencyMs.p99,
      peakRssMb: memory.peakMb,
      deriveLagMs,
      generatorCores: result.cpuCores,
      generateCores: result.generateCores,
      serverCores: server.inProcess || !busy ? Number.NaN : busy.serverCores,
      postgresCores: busy?.postgresCores ?? Number.NaN,
      failures: result.exportsFailed,
    },
  };
}

/**
 * From the last answer until the spool is empty and no run is left to derive: counted in `dirty_runs` where this process
 * can look; for a PGlite server process (which holds the folder), until its CPU goes quiet.
 */
async function deriverLag(server: BenchServer, lastAnswerAt: number): Promise<number> {
  // Acknowledged is not yet stored: the spool's requests become spans (and marked runs) first.
  await spoolEmpty(server.url);
  if ((await server.dirtyRuns()) === null) {
    return Math.max(0, (await waitForQuiet(server.pid)) - lastAnswerAt);
  }
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    if ((await server.dirtyRuns()) === 0) return Math.max(0, Date.now() - lastAnswerAt);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the deriver did not empty its queue in 10 minutes');
}

async function measureTwoServersAfter(
  database: BenchDatabase,
  lanes: number,
  options: BenchOptions,
  log: (message: string) => void,
): Promise<TwoServerResult> {
  const open = await database.open({ maxConnections: 1 });
  try {
    // From empty tables, as the one-server ladder began.
    await open.query('truncate spans, trace_runs, dirty_runs, runs, steps');
  } finally {
    await open.close();
  }
  const { warmupMs, windowMs } = sizesFor(options);
  const result = await measureTwoServers(database, {
    lanesEach: lanes,
    warmupMs,
    windowMs,
    batchSize: BATCH_SIZE,
    stepsPerRun: STEPS_PER_RUN,
  });
  log(
    `two servers, ${lanes} exporters each: ${Math.round(result.spansPerSecond)} spans/s (${result.acked} acked, ${result.stored} stored)`,
  );
  return result;
}

async function measureLimits(
  database: BenchDatabase,
  options: BenchOptions,
  log: (message: string) => void,
) {
  const captured = await capturePayloads({
    batches: sizesFor(options).limitBatches,
    batchSize: BATCH_SIZE,
    stepsPerRun: STEPS_PER_RUN,
    seed: process.pid,
  });
  const batches = decodePayloads(captured.bodies);
  const limitRows = batches.reduce((n, b) => n + b.length, 0);
  const open = await database.open({ maxConnections: 10 });
  try {
    const projectId = await ensureProject(open.db, 'default');
    const copy = await measureCopy(open, projectId, batches, sizesFor(options).repeats);
    log(`COPY: ${Math.round(copy.rowsPerSecond)} rows/s (${limitRows} rows)`);
    const { repeats } = sizesFor(options);
    const writeSequential = await measureWriteStage(open, projectId, batches, 1, repeats);
    log(`write stage, 1 writer: ${Math.round(writeSequential)} spans/s`);
    // PGlite runs one statement at a time: more writers only queue.
    const writers = 4;
    const writeConcurrent =
      database.kind === 'postgres'
        ? await measureWriteStage(open, projectId, batches, writers, repeats)
        : null;
    if (writeConcurrent !== null)
      log(`write stage, ${writers} writers: ${Math.round(writeConcurrent)} spans/s`);
    return {
      copyRowsPerSecond: copy.rowsPerSecond,
      writeSequential,
      writeConcurrent,
      writers,
      limitRows,
    };
  } finally {
    await open.close();
  }
}

function section(results: KindResult[], options: BenchOptions): BenchSection {
  const size = sizesFor(options);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  for (const r of results) {
    const k = r.kind;
    const b = r.best;
    const write = Math.max(r.writeSequential, r.writeConcurrent ?? 0);
    rows.push(
      row(
        `${k}: sustained ingest, real exporter (${b.lanes} in flight)`,
        b.spansPerSecond,
        'spans/s',
      ),
      ...(r.peak
        ? [
            row(
              `${k}: faster, deriver falling behind (${r.peak.lanes} in flight, lag ${(r.peak.deriveLagMs / 1000).toFixed(1)} s)`,
              r.peak.spansPerSecond,
              'spans/s',
            ),
          ]
        : []),
      row(
        `${k}: export latency p50 / p99`,
        `${Math.round(b.p50Ms)} / ${Math.round(b.p99Ms)}`,
        'ms',
      ),
      row(`${k}: server RSS, peak`, Math.max(...r.levels.map((l) => l.peakRssMb)), 'MB'),
      row(
        `${k}: deriver lag after the best level / the worst`,
        `${(b.deriveLagMs / 1000).toFixed(1)} / ${(Math.max(...r.levels.map((l) => l.deriveLagMs)) / 1000).toFixed(1)}`,
        's',
      ),
      row(`${k}: load generator CPU at the best level`, b.generatorCores, 'cores'),
      row(`${k}: COPY of the same rows`, r.copyRowsPerSecond, 'rows/s'),
      row(`${k}: write stage, 1 writer`, r.writeSequential, 'spans/s'),
    );
    if (r.writeConcurrent !== null)
      rows.push(row(`${k}: write stage, ${r.writers} writers`, r.writeConcurrent, 'spans/s'));
    rows.push(
      targetRow(`${k}: ingest ÷ COPY`, b.spansPerSecond / r.copyRowsPerSecond, {
        atLeast: INGEST_OF_COPY[r.kind],
      }),
      targetRow(`${k}: write stage ÷ COPY`, write / r.copyRowsPerSecond, { atLeast: 0.55 }),
      {
        metric: `${k}: acknowledged spans all stored`,
        value: `${r.acked} / ${r.stored}`,
        unit: 'acked / stored',
        target: 'equal',
        pass: r.acked === r.stored,
      },
    );
    if (r.twoServers) {
      const two = r.twoServers;
      rows.push(
        row(
          `${k}: sustained ingest, two servers on one database (${two.lanesEach} in flight each)`,
          two.spansPerSecond,
          'spans/s',
        ),
        row(`${k}: two servers ÷ one`, two.spansPerSecond / b.spansPerSecond, '×'),
        {
          metric: `${k}: two servers, acknowledged spans all stored`,
          value: `${two.acked} / ${two.stored}`,
          unit: 'acked / stored',
          target: 'equal',
          pass: two.acked === two.stored,
        },
      );
    }
    notes.push(
      `${k}, per level (exporters: spans/s, p50/p99 ms, peak RSS MB, derive lag s, CPU cores server / Postgres / generator (of which SDK span making)): ${r.levels
        .map(
          (l) =>
            `${l.lanes}: ${Math.round(l.spansPerSecond)}, ${Math.round(l.p50Ms)}/${Math.round(l.p99Ms)}, ${Math.round(l.peakRssMb)}, ${(l.deriveLagMs / 1000).toFixed(1)}, ${fmt(l.serverCores)} / ${fmt(l.postgresCores)} / ${fmt(l.generatorCores)} (${fmt(l.generateCores)})${l.failures > 0 ? `, ${l.failures} failed exports` : ''}`,
        )
        .join('; ')}.`,
    );
    if (r.dirtyLeft !== 0) notes.push(`${k}: ${r.dirtyLeft} runs were still marked at the end.`);
  }
  const pg = results.find((r) => r.kind === 'postgres');
  const lite = results.find((r) => r.kind === 'pglite');
  if (pg && lite) {
    rows.push(
      targetRow('PGlite ÷ Postgres, ingest', lite.best.spansPerSecond / pg.best.spansPerSecond, {
        atLeast: 0.4,
      }),
      row(
        'PGlite ÷ Postgres, write stage (1 writer)',
        lite.writeSequential / pg.writeSequential,
        '×',
      ),
    );
  }
  notes.push(
    `Batches of ${BATCH_SIZE} spans (runs of ${STEPS_PER_RUN} steps: a step span with an LLM and a tool call inside, ~20 attributes each), made by the OTel SDK and sent by OTLPTraceExporter (protobuf, gzip) from a separate process; sustained = spans acknowledged in a ${size.windowMs / 1000} s window after ${size.warmupMs / 1000} s of warm-up; the ladder stops after two levels in a row that gain less than 5% over the best.`,
    `Deriver lag: from the last answer of a level until no run is marked (Postgres: dirty_runs polled; PGlite server process: until its CPU goes quiet, as the folder is its own). Sustained is the fastest level whose lag stayed within ${DERIVE_LAG_LIMIT_MS / 1000} s; a faster level with a longer lag only grows the queue of runs to derive.`,
    `Limits on the same database after the server stopped, on ${results[0]?.limitRows ?? 0} rows captured from the same exporter and decoded by ingest's decoder and validator: COPY (spans with facts, trace_runs, dirty_runs; one transaction, one write per table) and ingestSpans on those batches, each the best of ${size.repeats} into emptied tables; write stage ÷ COPY uses the better of 1 and ${results[0]?.writers ?? 4} writers.`,
  );
  return { title: 'Ingest (OTLP/protobuf, real exporter)', rows, notes };
}

function fmt(cores: number): string {
  return Number.isFinite(cores) ? cores.toFixed(2) : '–';
}

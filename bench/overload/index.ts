// Part 5, overload: the built server driven at its sustainable rate (steady RSS), then at three
// times that rate for a bounded time by the real exporter (which retries 429/503 after
// Retry-After, as agents would); memory must stay bounded, excess load must be refused with
// Retry-After, nothing must crash, and every acknowledged span must be stored.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBenchDatabase } from '../shared/databases';
import { sampleRss } from '../shared/process-stats';
import { spoolEmpty } from '../shared/spool';
import { row, sustainableSource, targetRow } from '../shared/report';
import type { BenchOptions, BenchRow, BenchSection, DatabaseKind } from '../shared/report';
import { startBuiltServer, startInProcessServer } from '../shared/server';
import type { BenchServer } from '../shared/server';
import { BATCH_SIZE, STEPS_PER_RUN } from '../ingest/index';
import { startLoadGenerator } from '../ingest/load-driver';
import type { LoadGenerator } from '../ingest/load-driver';
import type { GeneratorResult } from '../ingest/load-protocol';

const FACTOR = 3;
/** Agents sending at once: each its own exporter (and keep-alive connections). */
const EXPORTERS = 16;

const SIZES = {
  full: { steadyMs: 10_000, overloadMs: 20_000, probeWarmupMs: 2000, probeMs: 8000 },
  quick: { steadyMs: 600, overloadMs: 1000, probeWarmupMs: 200, probeMs: 800 },
};
const sizesFor = (options: BenchOptions) => (options.quick ? SIZES.quick : SIZES.full);

interface OverloadResult {
  kind: DatabaseKind;
  rate: number;
  rateSource: string;
  steady: GeneratorResult;
  overload: GeneratorResult;
  steadyRssMb: number;
  peakRssMb: number;
  healthyAfter: boolean;
  acked: number;
  stored: number;
  missing: number;
}

export async function run(options: BenchOptions): Promise<BenchSection> {
  const results: OverloadResult[] = [];
  for (const kind of options.databases) results.push(await overload(kind, options));
  return section(results, options);
}

async function overload(kind: DatabaseKind, options: BenchOptions): Promise<OverloadResult> {
  const log = (message: string) => options.log(`overload/${kind}: ${message}`);
  const { steadyMs, overloadMs } = sizesFor(options);
  const database = await createBenchDatabase(kind, options.postgresUrl);
  const scratch = mkdtempSync(path.join(tmpdir(), 'loopscope-overload-'));
  try {
    const server =
      options.server === 'built'
        ? await startBuiltServer(database)
        : await startInProcessServer(kind);
    let generator: LoadGenerator | null = null;
    try {
      generator = await startLoadGenerator();
      const run = generator.run.bind(generator);
      const measured = options.shared.sustainableSpansPerSecond[kind];
      const rate = measured ?? (await probeRate(server, run, options));
      const rateSource = measured ? sustainableSource(options.shared, kind) : 'a short probe';
      log(`sustainable ${Math.round(rate)} spans/s (from ${rateSource})`);

      const open = (spansPerSecond: number, durationMs: number, file: string) =>
        run({
          type: 'open',
          url: server.url,
          key: server.key,
          batchSize: BATCH_SIZE,
          stepsPerRun: STEPS_PER_RUN,
          spansPerSecond,
          durationMs,
          exporters: EXPORTERS,
          ackedIdsFile: path.join(scratch, file),
        });
      // Steady: the sustainable rate; RSS over its second half.
      let steadyRss = sampleRss(server.pid);
      const halfway = setTimeout(() => {
        steadyRss.stop();
        steadyRss = sampleRss(server.pid);
      }, steadyMs / 2);
      const steady = await open(rate, steadyMs, 'steady.txt');
      clearTimeout(halfway);
      const steadyRssMb = steadyRss.stop().medianMb;

      const rss = sampleRss(server.pid, 50);
      const overload = await open(FACTOR * rate, overloadMs, 'overload.txt');
      const peakRssMb = rss.stop().peakMb;
      const healthyAfter = await healthy(server.url);
      // Spans acknowledged are counted once stored: after the spool has been worked off.
      await spoolEmpty(server.url);
      log(
        `offered ${Math.round(overload.spansOffered / (overload.windowMs / 1000))} spans/s; HTTP ${JSON.stringify(overload.httpStatuses)}; RSS steady ${Math.round(steadyRssMb)} MB, peak ${Math.round(peakRssMb)} MB`,
      );
      await server.stop();

      const acked = new Set(
        ['steady.txt', 'overload.txt'].flatMap((f) =>
          readFileSync(path.join(scratch, f), 'utf8').split('\n').filter(Boolean),
        ),
      );
      const rows = await server.query(`select trace_id || ':' || span_id as id from spans`);
      const stored = new Set(rows.map((r) => String(r.id)));
      let missing = 0;
      for (const id of acked) if (!stored.has(id)) missing++;
      return {
        kind,
        rate,
        rateSource,
        steady,
        overload,
        steadyRssMb,
        peakRssMb,
        healthyAfter,
        acked: acked.size,
        stored: stored.size,
        missing,
      };
    } finally {
      await generator?.close();
      await server.stop();
      await server.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await database.drop();
  }
}

/** Without the ingest part's number: a short closed-loop run at the default concurrency. */
export async function probeRate(
  server: BenchServer,
  run: LoadGenerator['run'],
  options: BenchOptions,
): Promise<number> {
  return (await probe(server, run, options)).rate;
}

/** The probe's rate and the spans it had acknowledged. */
export async function probe(
  server: BenchServer,
  run: LoadGenerator['run'],
  options: BenchOptions,
): Promise<{ rate: number; acked: number }> {
  const result = await run({
    type: 'closed',
    url: server.url,
    key: server.key,
    lanes: server.kind === 'postgres' ? 8 : 2,
    batchSize: BATCH_SIZE,
    stepsPerRun: STEPS_PER_RUN,
    warmupMs: sizesFor(options).probeWarmupMs,
    durationMs: sizesFor(options).probeMs,
  });
  return { rate: (result.spansInWindow * 1000) / result.windowMs, acked: result.spansAcked };
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/health`)).status === 200;
  } catch {
    return false;
  }
}

function section(results: OverloadResult[], options: BenchOptions): BenchSection {
  const size = sizesFor(options);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  for (const r of results) {
    const k = r.kind;
    const o = r.overload;
    const responses = Object.values(o.httpStatuses).reduce((a, b) => a + b, 0);
    const errors = Object.entries(o.httpStatuses)
      .filter(([status]) => status !== '200' && status !== '429' && status !== '503')
      .reduce((n, [, count]) => n + count, 0);
    const offered = o.spansOffered / (o.windowMs / 1000);
    rows.push(
      row(`${k}: sustainable rate (from ${r.rateSource})`, r.rate, 'spans/s'),
      row(`${k}: offered ÷ sustainable (aimed at ${FACTOR}×)`, offered / r.rate, '×'),
      row(
        `${k}: acknowledged under overload (until the last answer)`,
        o.spansAcked / (o.elapsedMs / 1000),
        'spans/s',
      ),
      row(
        `${k}: server RSS steady / peak`,
        `${Math.round(r.steadyRssMb)} / ${Math.round(r.peakRssMb)}`,
        'MB',
      ),
      targetRow(`${k}: peak RSS ÷ steady RSS`, r.peakRssMb / r.steadyRssMb, { atMost: 1.5 }),
      row(
        `${k}: answers 429/503 (of ${responses})`,
        responses > 0 ? (100 * o.refused) / responses : 0,
        '%',
      ),
      {
        metric: `${k}: refusals with Retry-After`,
        value: `${o.refused - o.refusedWithoutRetryAfter} / ${o.refused}`,
        unit: 'answers',
        target: 'all',
        pass: o.refusedWithoutRetryAfter === 0,
      },
      {
        metric: `${k}: other errors, server healthy after`,
        value: `${errors}, ${r.healthyAfter ? 'yes' : 'no'}`,
        unit: '',
        target: '0, yes',
        pass: errors === 0 && r.healthyAfter,
      },
      {
        metric: `${k}: acknowledged spans stored`,
        value: `${r.acked - r.missing} / ${r.acked}`,
        unit: 'spans',
        target: 'all',
        pass: r.missing === 0 && r.acked > 0,
      },
    );
    notes.push(
      `${k}: ${r.stored} spans stored, ${r.acked} acknowledged (${r.stored - (r.acked - r.missing)} stored without an acknowledgement: exports the exporter gave up on, or answered after its timeout); exports failed for good: ${o.exportsFailed}${
        Object.keys(o.failures).length > 0
          ? ` (${Object.entries(o.failures)
              .map(([m, n]) => `${n}× ${m}`)
              .join('; ')})`
          : ''
      }; HTTP answers under overload ${JSON.stringify(o.httpStatuses)}; generator CPU ${o.cpuCores.toFixed(2)} cores (SDK span making ${o.generateCores.toFixed(2)}; the rest is the exporter serializing, gzipping, sending and retrying).`,
    );
  }
  if (results.some((r) => r.overload.spansOffered / (r.overload.windowMs / 1000) < 2.9 * r.rate))
    notes.push(
      `The generator offered less than ${FACTOR}× where the ratio row says so: it shares the machine's cores with the server, and every refused batch is gzipped and sent again by the exporter's retries.`,
    );
  notes.push(
    `Open loop from a separate process: ${EXPORTERS} OTLP/protobuf exporters (gzip, batches of ${BATCH_SIZE}, timeout 30 s, retrying 429/503 after Retry-After as the SDK does) at the sustainable rate for ${size.steadyMs / 1000} s (steady RSS: median of its second half), then at ${FACTOR}× for ${size.overloadMs / 1000} s (peak RSS sampled every 50 ms); spans are counted in the database after the server stopped.`,
  );
  return { title: `Overload (${FACTOR}× the sustainable rate)`, rows, notes };
}

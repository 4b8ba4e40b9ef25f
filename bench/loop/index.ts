// Part 8, loop: what a harness waits for while ingest runs at the sustainable rate in the
// background (real OTLP exporters from the load generator, same project). The guard's round trip
// as the kit's `remoteGuard` makes it (flush the step's spans, then ask; the answer must count
// that step) on a 10,000-step run against a 10-step one, and the time from an export's 200 until
// its step is in the read API.
import { startRun } from '../../kit/index';
import type { LoopRun } from '../../kit/index';
import { remoteGuard } from '../../kit/remote-guard';
import { createSender } from '../../e2e/support/otel';
import type { Sender } from '../../e2e/support/otel';
import { createBenchDatabase } from '../shared/databases';
import { row, sustainableSource, targetRow } from '../shared/report';
import type { BenchOptions, BenchRow, BenchSection, DatabaseKind } from '../shared/report';
import { startBuiltServer, startInProcessServer } from '../shared/server';
import type { BenchServer } from '../shared/server';
import { spoolEmpty } from '../shared/spool';
import { BATCH_SIZE, STEPS_PER_RUN } from '../ingest/index';
import { startLoadGenerator } from '../ingest/load-driver';
import type { GeneratorResult } from '../ingest/load-protocol';
import { probe } from '../overload/index';

const SIZES = {
  full: { longSteps: 10_000, shortSteps: 10, probes: 40, loadMs: 90_000 },
  quick: { longSteps: 200, shortSteps: 10, probes: 3, loadMs: 6_000 },
};
const EXPORTERS = 4;

interface LoopResult {
  kind: DatabaseKind;
  /** The share of the sustainable rate the background ran at. */
  share: number;
  rate: number;
  rateSource: string;
  load: GeneratorResult;
  guardShort: number[];
  guardLong: number[];
  visible: number[];
  /** Answers that did not count the step just ended (the guard read an older trajectory). */
  stale: number;
}

export async function run(options: BenchOptions): Promise<BenchSection> {
  const results: LoopResult[] = [];
  for (const kind of options.databases) results.push(...(await measure(kind, options)));
  return section(results, options);
}

async function measure(kind: DatabaseKind, options: BenchOptions): Promise<LoopResult[]> {
  const log = (message: string) => options.log(`loop/${kind}: ${message}`);
  const size = options.quick ? SIZES.quick : SIZES.full;
  const database = await createBenchDatabase(kind, options.postgresUrl);
  let server: BenchServer | null = null;
  let sender: Sender | null = null;
  const generator = await startLoadGenerator();
  try {
    server =
      options.server === 'built'
        ? await startBuiltServer(database)
        : await startInProcessServer(kind);
    const { url, key } = server;
    sender = createSender({ url, key, serviceName: 'bench-loop' });
    const guard = remoteGuard({ url, key, flush: sender.flush });

    const long = await buildRun(sender, `loop-long-${kind}`, size.longSteps, server);
    const short = await buildRun(sender, `loop-short-${kind}`, size.shortSteps, server);
    const visibleRun = await buildRun(sender, `loop-visible-${kind}`, 1, server);
    log(`runs of ${size.longSteps} and ${size.shortSteps} steps stored`);

    const run = generator.run.bind(generator);
    const measured = options.shared.sustainableSpansPerSecond[kind];
    const sustainable = measured ?? (await probe(server, run, options)).rate;
    const rateSource = measured ? sustainableSource(options.shared, kind) : 'a short probe';
    const results: LoopResult[] = [];
    for (const share of options.loopRates) {
      const rate = sustainable * share;
      await spoolEmpty(url);
      log(
        `background ingest at ${Math.round(rate)} spans/s (${share} × the rate from ${rateSource})`,
      );
      const loading = run({
        type: 'open',
        url,
        key,
        batchSize: BATCH_SIZE,
        stepsPerRun: STEPS_PER_RUN,
        spansPerSecond: rate,
        durationMs: size.loadMs,
        exporters: EXPORTERS,
      });
      // Awaited after the probes; a failure meanwhile is kept for then, not thrown unheard.
      loading.catch(() => {});
      const loadStarted = Date.now();
      // The load's first seconds: exporters connecting, the spool's workers settling.
      await new Promise((resolve) => setTimeout(resolve, options.quick ? 500 : 3000));

      const guardShort: number[] = [];
      const guardLong: number[] = [];
      const visible: number[] = [];
      let stale = 0;
      const ask = async (target: BuiltRun, into: number[]) => {
        const step = target.next();
        const started = performance.now();
        const verdict = await guard(target.run.id);
        into.push(performance.now() - started);
        // "continue" says how many steps it read; any other answer names the step.
        if (verdict.step !== step && !verdict.evidence.startsWith(`${step} steps`)) {
          stale++;
          if (stale <= 3) log(`stale answer at step ${step}: ${JSON.stringify(verdict)}`);
        }
      };
      for (let k = 0; k < size.probes; k++) {
        if (Date.now() - loadStarted > size.loadMs - 2000) break;
        // Alternated, so both see the same background.
        await ask(short, guardShort);
        await ask(long, guardLong);
        visible.push(await timeToVisible(sender, server, visibleRun));
      }
      const load = await loading;
      log(
        `guard p50 ${median(guardShort).toFixed(0)} / ${median(guardLong).toFixed(0)} ms (10 / ${size.longSteps} steps); visible p99 ${percentile(visible, 0.99).toFixed(0)} ms; stale ${stale}`,
      );
      results.push({ kind, share, rate, rateSource, load, guardShort, guardLong, visible, stale });
    }
    return results;
  } finally {
    await sender?.shutdown();
    await generator.close();
    await server?.stop();
    await server?.close();
    await database.drop();
  }
}

interface BuiltRun {
  run: LoopRun;
  /** Ends one more step; returns its number. */
  next(): number;
  steps: number;
}

/** A kit run of `steps` steps, exported and stored. */
async function buildRun(
  sender: Sender,
  runId: string,
  steps: number,
  server: BenchServer,
): Promise<BuiltRun> {
  const run = startRun(sender.tracer, {
    goal: `bench loop: ${runId}`,
    agent: 'bench-loop',
    runId,
  });
  const built: BuiltRun = {
    run,
    steps: 0,
    next() {
      built.steps++;
      run
        .step({ action: 'edit_file', args: { step: built.steps } })
        .observe({ state: { step: built.steps } })
        .end();
      return built.steps;
    },
  };
  for (let k = 0; k < steps; k++) {
    built.next();
    if (k % 1000 === 999) await sender.flush();
  }
  await sender.flush();
  await spoolEmpty(server.url);
  await stepCount(server, runId, steps);
  return built;
}

/** From the 200 of the export holding a new step until the read API lists it. */
async function timeToVisible(
  sender: Sender,
  server: BenchServer,
  target: BuiltRun,
): Promise<number> {
  const step = target.next();
  await sender.flush();
  const started = performance.now();
  await stepCount(server, target.run.id, step);
  return performance.now() - started;
}

/** Polls `GET /api/v1/runs/{id}` until the run has `steps` steps. */
async function stepCount(server: BenchServer, runId: string, steps: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const response = await fetch(`${server.url}/api/v1/runs/${encodeURIComponent(runId)}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    if (response.ok) {
      const body = (await response.json()) as { run?: { stepCount?: number } };
      if ((body.run?.stepCount ?? 0) >= steps) return;
    }
    if (Date.now() > deadline) throw new Error(`run ${runId} did not reach ${steps} steps`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
}

const median = (values: number[]) => percentile(values, 0.5);

function section(results: LoopResult[], options: BenchOptions): BenchSection {
  const size = options.quick ? SIZES.quick : SIZES.full;
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  for (const r of results) {
    // The sustainable rate's rows keep their names; other shares say theirs.
    const k = r.share === 1 ? r.kind : `${r.kind} at ${r.share} × the rate`;
    const short = median(r.guardShort);
    const long = median(r.guardLong);
    rows.push(
      row(
        `${k}: guard round trip, ${size.shortSteps}-step run: p50 / p99`,
        `${short.toFixed(1)} / ${percentile(r.guardShort, 0.99).toFixed(1)}`,
        'ms',
      ),
      row(
        `${k}: guard round trip, ${size.longSteps}-step run: p50 / p99`,
        `${long.toFixed(1)} / ${percentile(r.guardLong, 0.99).toFixed(1)}`,
        'ms',
      ),
      targetRow(
        `${k}: guard round trip, ${size.longSteps} ÷ ${size.shortSteps} steps (p50)`,
        long / short,
        {
          atMost: 2,
        },
      ),
      {
        metric: `${k}: guard answers counting the step just ended`,
        value: `${r.guardShort.length + r.guardLong.length - r.stale} / ${r.guardShort.length + r.guardLong.length}`,
        unit: '',
        target: 'all',
        pass: r.stale === 0 && r.guardLong.length > 0,
      },
      row(`${k}: time to visible (200 → step in the read API): p50`, median(r.visible), 'ms'),
      targetRow(
        `${k}: time to visible: p99`,
        percentile(r.visible, 0.99) / 1000,
        { atMost: 2 },
        's',
      ),
      row(
        `${k}: background ingest acknowledged ÷ offered`,
        r.load.spansOffered > 0 ? r.load.spansAcked / r.load.spansOffered : 0,
        '',
      ),
      row(`${k}: load generator CPU`, r.load.cpuCores, 'cores'),
    );
    notes.push(
      `${k}: background ${Math.round(r.rate)} spans/s (from ${r.rateSource}) by ${EXPORTERS} exporters, HTTP ${JSON.stringify(r.load.httpStatuses)}; ${r.guardLong.length} probes of each run, one after another, each run's next step ended then \`remoteGuard\` (forceFlush, then POST /api/v1/guard); time to visible: a step of a third run ended, forceFlush resolved (the 200), then GET /api/v1/runs/{id} every 5 ms until it counts the step.`,
    );
  }
  return {
    title: 'The guard in the loop, and time to visible, under ingest at the sustainable rate',
    rows,
    notes,
  };
}

// Part 6, burst: the built server offered 3 × its sustainable rate for 60 s by real OTLP
// exporters (16 of them, each retrying 429/503 after Retry-After as the SDK does). The spool takes
// the burst in and its workers work it off: what share was acknowledged, how many spans were
// lost (emitted and never stored: exports the exporters gave up on), and how long after the
// burst until every span is stored and visible.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pinPostgres, pinProcess, serverCpus } from '../shared/cpus';
import { createBenchDatabase } from '../shared/databases';
import { sampleRss } from '../shared/process-stats';
import { row, sustainableSource, targetRow } from '../shared/report';
import type { BenchOptions, BenchRow, BenchSection, DatabaseKind } from '../shared/report';
import { startBuiltServer, startInProcessServer } from '../shared/server';
import { allDerived, pipelineLook, spoolEmpty } from '../shared/spool';
import { BATCH_SIZE, STEPS_PER_RUN } from '../ingest/index';
import { startLoadGenerator } from '../ingest/load-driver';
import type { LoadGenerator } from '../ingest/load-driver';
import type { GeneratorResult } from '../ingest/load-protocol';
import { probe } from '../overload/index';

const FACTOR = 3;
const EXPORTERS = 16;
const SIZES = { full: { burstMs: 60_000 }, quick: { burstMs: 1000 } };
/** The server's LOOPSCOPE_DERIVE_BACKLOG (it inherits this environment): the workers' hold-back. */
const DERIVE_BACKLOG = Number(process.env.LOOPSCOPE_DERIVE_BACKLOG ?? 1000);

interface BurstResult {
  kind: DatabaseKind;
  rate: number;
  rateSource: string;
  burst: GeneratorResult;
  peakRssMb: number;
  /** The server's RSS at its peak during the closed-loop probe at the sustainable rate. */
  steadyRssMb: number;
  /** From the end of the offered burst until the spool was empty (every acknowledged span stored). */
  visibleAfterMs: number;
  /** From the end of the offered burst until every run was derived as well. */
  derivedAfterMs: number;
  peakBacklog: number;
  /** How far derivation fell behind, and how long it held the spool's workers back. */
  derivation: string;
  /** The CPU the load generator was held to, or null. */
  generatorCpu: number | null;
  acked: number;
  ackedMissing: number;
  stored: number;
}

export async function run(options: BenchOptions): Promise<BenchSection> {
  const results: BurstResult[] = [];
  for (const kind of options.databases) results.push(await burst(kind, options));
  return section(results, options);
}

async function burst(kind: DatabaseKind, options: BenchOptions): Promise<BurstResult> {
  const log = (message: string) => options.log(`burst/${kind}: ${message}`);
  const burstMs = burstLength(options);
  const database = await createBenchDatabase(kind, options.postgresUrl);
  const scratch = mkdtempSync(path.join(tmpdir(), 'loopscope-burst-'));
  try {
    const server =
      options.server === 'built'
        ? await startBuiltServer(database)
        : await startInProcessServer(kind);
    let generator: LoadGenerator | null = null;
    let unpinPostgres: (() => void) | null = null;
    try {
      generator = await startLoadGenerator();
      // The generator on the last CPU, the server and its Postgres on the rest: the burst
      // measures what the server's cores take in, not what a generator beside it leaves them.
      const cpus = generator.cpu === null || server.inProcess ? null : serverCpus();
      const serverPinned = cpus !== null && pinProcess(server.pid, cpus);
      if (serverPinned && kind === 'postgres') {
        unpinPostgres = await pinPostgres(options.postgresUrl, cpus);
      }
      const pinned = serverPinned && (kind === 'pglite' || unpinPostgres !== null) ? cpus : null;
      const run = generator.run.bind(generator);
      const measured = options.shared.sustainableSpansPerSecond[kind];
      // A short closed-loop probe: the server's steady RSS, and the sustainable rate, what was
      // stored and derived per second until the spool was empty and every run derived
      // (acknowledged alone would be the door's rate; stored alone leaves derivation behind,
      // which then holds the spool back in the burst). As the ingest part's sustainable level,
      // it is what the whole pipeline keeps up with. Pinned, the probe's rate is the one: the
      // ingest part's had every core.
      const probeStart = Date.now();
      const steadyRss = sampleRss(server.pid, 50);
      const probed = await probe(server, run, options);
      const probeAckedAt = Date.now();
      const probeStored = await spoolEmpty(server.url);
      const probeDerived = await allDerived(server.url);
      const probePhases = `the probe: ${probed.acked} spans acknowledged in ${((probeAckedAt - probeStart) / 1000).toFixed(1)} s, stored after ${((probeStored.at - probeStart) / 1000).toFixed(1)} s, derived after ${((probeDerived - probeStart) / 1000).toFixed(1)} s`;
      log(probePhases);
      const steadyRssMb = steadyRss.stop().peakMb;
      const probedRate = (probed.acked * 1000) / Math.max(1, probeDerived - probeStart);
      const rate = pinned !== null || !measured ? probedRate : measured;
      const rateSource =
        pinned !== null
          ? `a probe on the server's CPUs (${pinned}), acknowledged to stored and derived${measured ? `; ${sustainableSource(options.shared, kind)}, with every core: ${Math.round(measured)}` : ''}`
          : measured
            ? sustainableSource(options.shared, kind)
            : 'a short probe, acknowledged to stored and derived';
      // The probe's spans are not the burst's: stored before it starts, and not counted in it.
      const before = probed.acked;
      const offer = options.burst?.spansPerSecond ?? FACTOR * rate;
      log(
        `sustainable ${Math.round(rate)} spans/s (from ${rateSource}); offering ${Math.round(offer)} spans/s (${(offer / rate).toFixed(2)}×)`,
      );

      const rss = sampleRss(server.pid, 50);
      let peakBacklog = 0;
      let peakPendingRuns = 0;
      // Past LOOPSCOPE_DERIVE_BACKLOG runs waiting, the workers leave the spool alone (the
      // server inherits this environment).
      let looksHeldBack = 0;
      let looksAfter = 0;
      const startedAt = Date.now();
      const watching = watchBacklog(server.url, (look) => {
        peakBacklog = Math.max(peakBacklog, look.requests);
        peakPendingRuns = Math.max(peakPendingRuns, look.pendingRuns);
        if (Date.now() < startedAt + burstMs || look.requests === 0) return;
        looksAfter++;
        if (look.pendingRuns > DERIVE_BACKLOG) looksHeldBack++;
      });
      const result = await run({
        type: 'open',
        url: server.url,
        key: server.key,
        batchSize: BATCH_SIZE,
        stepsPerRun: STEPS_PER_RUN,
        spansPerSecond: offer,
        durationMs: burstMs,
        exporters: options.burst?.exporters ?? EXPORTERS,
        ackedIdsFile: path.join(scratch, 'acked.txt'),
      });
      const offeredUntil = startedAt + result.windowMs;
      const empty = await spoolEmpty(server.url);
      const derivedAt = await allDerived(server.url);
      watching.stop();
      const peakRssMb = rss.stop().peakMb;
      peakBacklog = Math.max(peakBacklog, empty.peakRequests);
      const visibleAfterMs = Math.max(0, empty.at - offeredUntil);
      const derivedAfterMs = Math.max(0, derivedAt - offeredUntil);
      log(
        `HTTP ${JSON.stringify(result.httpStatuses)}; peak backlog ${peakBacklog} requests; all stored ${(visibleAfterMs / 1000).toFixed(1)} s after the burst`,
      );
      const derivation = `runs waiting to be derived at most ${peakPendingRuns}; every run derived ${(derivedAfterMs / 1000).toFixed(1)} s after the offering ended; while the spool was worked off after the burst, over ${DERIVE_BACKLOG.toLocaleString('en-US')} (its workers holding back) in ${looksAfter === 0 ? 0 : Math.round((100 * looksHeldBack) / looksAfter)} % of ${looksAfter} looks`;
      log(derivation);
      await server.stop();

      const acked = readFileSync(path.join(scratch, 'acked.txt'), 'utf8')
        .split('\n')
        .filter(Boolean);
      const rows = await server.query(`select trace_id || ':' || span_id as id from spans`);
      const stored = new Set(rows.map((r) => String(r.id)));
      const ackedMissing = acked.filter((id) => !stored.has(id)).length;
      return {
        kind,
        rate,
        rateSource,
        burst: result,
        peakRssMb,
        steadyRssMb,
        visibleAfterMs,
        derivedAfterMs,
        peakBacklog,
        derivation: `${probePhases}; ${derivation}`,
        generatorCpu: generator.cpu,
        acked: acked.length,
        ackedMissing,
        stored: stored.size - before,
      };
    } finally {
      unpinPostgres?.();
      await generator?.close();
      await server.stop();
      await server.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await database.drop();
  }
}

/** Looks at the spool's backlog and the runs waiting to be derived every 250 ms. */
function watchBacklog(url: string, seen: (look: BacklogLook) => void): { stop(): void } {
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const look = await pipelineLook(url);
      if (look) seen({ requests: look.spool.requests, pendingRuns: look.pendingRuns });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return { stop: () => (stopped = true) };
}

interface BacklogLook {
  requests: number;
  pendingRuns: number;
}

function offerText(options: BenchOptions): string {
  return options.burst
    ? `${options.burst.spansPerSecond.toLocaleString('en-US')} spans/s`
    : `${FACTOR}× the sustainable rate`;
}

/** The offering's length: `--burst`'s, else the part's own. */
function burstLength(options: BenchOptions): number {
  if (options.burst) return options.burst.seconds * 1000;
  return (options.quick ? SIZES.quick : SIZES.full).burstMs;
}

function section(results: BurstResult[], options: BenchOptions): BenchSection {
  const burstMs = burstLength(options);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  for (const r of results) {
    const k = r.kind;
    const b = r.burst;
    const offered = b.spansOffered / (b.windowMs / 1000);
    const lost = Math.max(0, b.spansOffered - r.stored);
    rows.push(
      row(
        `${k}: burst, offered ÷ sustainable (aimed at ${options.burst ? `${options.burst.spansPerSecond} spans/s by ${options.burst.exporters} exporters` : `${FACTOR}×`})`,
        offered / r.rate,
        '×',
      ),
      row(
        `${k}: burst, acknowledged share (spans answered 200 ÷ offered)`,
        b.spansOffered > 0 ? r.acked / b.spansOffered : 0,
        '',
      ),
      row(
        `${k}: burst, goodput while offered ÷ sustainable`,
        (b.spansInWindow * 1000) / b.windowMs / r.rate,
        '×',
      ),
      {
        metric: `${k}: burst, spans lost (offered, never stored) / exports failed for good`,
        value: `${lost} / ${b.exportsFailed}`,
        unit: '',
        target: '0 / 0',
        pass: lost === 0 && b.exportsFailed === 0,
      },
      {
        metric: `${k}: burst, acknowledged spans stored`,
        value: `${r.acked - r.ackedMissing} / ${r.acked}`,
        unit: 'spans',
        target: 'all',
        pass: r.ackedMissing === 0 && r.acked > 0,
      },
      row(`${k}: burst, peak spool backlog`, r.peakBacklog, 'requests'),
      targetRow(
        `${k}: burst, all spans stored after the burst ÷ its length`,
        r.visibleAfterMs / b.windowMs,
        { atMost: 2 },
      ),
      row(
        `${k}: burst, every run derived after the burst ÷ its length`,
        r.derivedAfterMs / b.windowMs,
        '×',
      ),
      row(
        `${k}: server RSS peak, steady (the probe) / burst`,
        `${Math.round(r.steadyRssMb)} / ${Math.round(r.peakRssMb)}`,
        'MB',
      ),
      targetRow(`${k}: burst, server RSS peak ÷ steady`, r.peakRssMb / r.steadyRssMb, {
        atMost: 1.5,
      }),
      row(`${k}: burst, load generator CPU`, b.cpuCores, 'cores'),
    );
    notes.push(
      `${k}: sustainable ${Math.round(r.rate)} spans/s (from ${r.rateSource}); ${b.spansOffered} spans offered, ${r.acked} acknowledged, ${r.stored} stored; every span stored ${(r.visibleAfterMs / 1000).toFixed(1)} s after the offering ended; HTTP answers ${JSON.stringify(b.httpStatuses)}${
        Object.keys(b.failures).length > 0
          ? `; failed exports: ${Object.entries(b.failures)
              .map(([m, n]) => `${n}× ${m}`)
              .join('; ')}`
          : ''
      }${
        Object.keys(b.refusalReasons).length > 0
          ? `; refused because: ${Object.entries(b.refusalReasons)
              .sort((x, y) => y[1] - x[1])
              .map(([m, n]) => `${n}× "${m}"`)
              .join('; ')}`
          : ''
      }; ${r.derivation}; generator CPU ${b.cpuCores.toFixed(2)} cores (SDK span making ${b.generateCores.toFixed(2)})${
        r.generatorCpu === null ? '' : `, held to CPU ${r.generatorCpu}`
      }.`,
    );
  }
  notes.push(
    `Open loop from a separate process: ${options.burst?.exporters ?? EXPORTERS} OTLP/protobuf exporters (gzip, batches of ${BATCH_SIZE}, timeout 30 s, retrying 429/503 after Retry-After) at ${offerText(options)} for ${burstMs / 1000} s; "stored after the burst" is from the end of the offering until /api/health reports the spool empty, "derived" until it also reports no run waiting to be derived; the sustainable rate is the probe's spans ÷ the time from its start until both; spans counted in the database after the server stopped.`,
  );
  return { title: `Burst (${offerText(options)} for ${burstMs / 1000} s)`, rows, notes };
}

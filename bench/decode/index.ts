// Part 2, decode: MB/s of ingest's protobuf decoder against protobufjs on the captured payloads,
// and decode's share of the server's CPU under ingest load, from a CPU profile of the server
// (the built one started with --cpu-prof; in process, an inspector session).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBenchDatabase } from '../shared/databases';
import { cpuWindow, measureLater } from '../shared/process-stats';
import { row } from '../shared/report';
import type { BenchOptions, BenchRow, BenchSection, DatabaseKind } from '../shared/report';
import { startBuiltServer, startInProcessServer } from '../shared/server';
import { capturePayloads } from '../ingest/capture';
import { BATCH_SIZE, STEPS_PER_RUN } from '../ingest/index';
import { startLoadGenerator } from '../ingest/load-driver';
import type { LoadGenerator } from '../ingest/load-driver';
import { raceDecoders } from './decoders';
import { analyzeProfile, DECODE_STAGE, IDLE, profileThisProcess } from './profile';
import type { CpuProfile, ProfileBreakdown } from './profile';

const SIZES = {
  full: { batches: 16, roundMs: 1500, rounds: 5, warmupMs: 3000, windowMs: 10_000 },
  quick: { batches: 2, roundMs: 50, rounds: 1, warmupMs: 200, windowMs: 1000 },
};
const sizesFor = (options: BenchOptions) => (options.quick ? SIZES.quick : SIZES.full);

interface ProfiledRun {
  kind: DatabaseKind;
  lanes: number;
  spansPerSecond: number;
  breakdown: ProfileBreakdown;
  /** Postgres server processes over the same window, in ms of CPU. */
  postgresMs: number;
}

export async function run(options: BenchOptions): Promise<BenchSection> {
  const captured = await capturePayloads({
    batches: sizesFor(options).batches,
    batchSize: BATCH_SIZE,
    stepsPerRun: STEPS_PER_RUN,
    seed: process.pid + 7,
  });
  const race = raceDecoders(captured.bodies, sizesFor(options));
  const profiled: ProfiledRun[] = [];
  for (const kind of options.databases) profiled.push(await profileUnderLoad(kind, options));
  return section(race, profiled, captured.wireBytes / captured.bodies.length, options);
}

async function profileUnderLoad(kind: DatabaseKind, options: BenchOptions): Promise<ProfiledRun> {
  const lanes = options.shared.bestLanes[kind] ?? (kind === 'postgres' ? 8 : 2);
  const { warmupMs, windowMs: durationMs } = sizesFor(options);
  const inProcess = options.server === 'in-process';
  const database = await createBenchDatabase(kind, options.postgresUrl);
  const profileDir = mkdtempSync(path.join(tmpdir(), 'loopscope-profile-'));
  try {
    const server = inProcess
      ? await startInProcessServer(kind)
      : await startBuiltServer(database, {
          nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
        });
    let generator: LoadGenerator | null = null;
    try {
      generator = await startLoadGenerator();
      const session = inProcess ? await profileThisProcess() : null;
      // process.hrtime is V8's profile clock (CLOCK_MONOTONIC, µs there), so the window lines up.
      const sentUs = Number(process.hrtime.bigint() / 1000n);
      const window = {
        startUs: sentUs + warmupMs * 1000,
        endUs: sentUs + (warmupMs + durationMs) * 1000,
      };
      const postgres = measureLater(warmupMs, durationMs, () =>
        cpuWindow(server.pid, kind === 'postgres'),
      );
      const result = await generator.run({
        type: 'closed',
        url: server.url,
        key: server.key,
        lanes,
        batchSize: BATCH_SIZE,
        stepsPerRun: STEPS_PER_RUN,
        warmupMs,
        durationMs,
      });
      const cpu = postgres.result();
      const sessionProfile = session ? await session.stop() : null;
      await server.stop();
      const profile = sessionProfile ?? readProfile(profileDir, server.pid);
      const inWindow = window.startUs >= profile.startTime && window.endUs <= profile.endTime;
      // In process the whole session is the load; a server process's profile holds its start-up.
      const breakdown = analyzeProfile(profile, inProcess || !inWindow ? undefined : window);
      const spansPerSecond = (result.spansInWindow * 1000) / result.windowMs;
      options.log(
        `decode/${kind}: profiled ${Math.round(breakdown.busyMs)} ms of server CPU at ${Math.round(spansPerSecond)} spans/s${inWindow || inProcess ? '' : ' (window not in the profile: whole profile used)'}`,
      );
      const postgresMs = cpu ? cpu.postgresCores * cpu.seconds * 1000 : 0;
      return { kind, lanes, spansPerSecond, breakdown, postgresMs };
    } finally {
      await generator?.close();
      await server.stop();
      await server.close();
    }
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
    await database.drop();
  }
}

function readProfile(dir: string, pid: number): CpuProfile {
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (others are
  // helpers, such as tsx's module-hooks thread).
  const main = readdirSync(dir).find((f) => f.includes(`.${pid}.0.`) && f.endsWith('.cpuprofile'));
  if (!main) throw new Error(`the server (pid ${pid}) wrote no CPU profile of its main thread`);
  return JSON.parse(readFileSync(path.join(dir, main), 'utf8')) as CpuProfile;
}

function section(
  race: ReturnType<typeof raceDecoders>,
  profiled: ProfiledRun[],
  wireBytesPerBody: number,
  options: BenchOptions,
): BenchSection {
  const rows: BenchRow[] = [];
  const ours = race.results[0];
  const protobufjs = race.results[1];
  for (const r of race.results) rows.push(row(`decode: ${r.name}`, r.bestMBps, 'MB/s'));
  if (ours && protobufjs)
    rows.push(
      row(
        'decode: ingest ÷ protobufjs (decode + toObject)',
        ours.bestMBps / protobufjs.bestMBps,
        '×',
      ),
    );
  const notes = [
    `Payloads: ${race.spans} spans in ${(race.protobufBytes / 1e6).toFixed(1)} MB of protobuf as the real exporter sent them (${(wireBytesPerBody / 1024).toFixed(0)} KiB gzipped per batch of ${BATCH_SIZE}); OTLP/JSON of the same requests ${(race.jsonBytes / 1e6).toFixed(1)} MB. Best of ${sizesFor(options).rounds} interleaved rounds; protobufjs is the only other decoder installed (no other was added for the bench).`,
  ];
  for (const p of profiled) {
    const b = p.breakdown;
    const decode = b.stages.get(DECODE_STAGE) ?? 0;
    const allIngest = b.busyMs + p.postgresMs;
    rows.push(
      row(
        `${p.kind}: decode share of server CPU (self time in ingest/otlp/*)`,
        (100 * b.decodeSelfMs) / b.busyMs,
        '%',
      ),
      row(
        `${p.kind}: decode share of server CPU (decode on the stack)`,
        (100 * decode) / b.busyMs,
        '%',
      ),
    );
    if (p.kind === 'postgres')
      rows.push(
        row(
          'postgres: decode share of all ingest CPU (server + Postgres)',
          (100 * decode) / allIngest,
          '%',
        ),
      );
    const seconds = b.totalMs / 1000;
    const spans = p.spansPerSecond * seconds;
    const perSpan = (ms: number) => (spans > 0 ? ((ms * 1000) / spans).toFixed(0) : '–');
    const stages = [...b.stages.entries()]
      .filter(([name]) => name !== IDLE)
      .sort((x, y) => y[1] - x[1])
      .map(
        ([name, ms]) => `${name} ${((100 * ms) / allIngest).toFixed(1)}% (${perSpan(ms)} µs/span)`,
      );
    if (p.postgresMs > 0)
      stages.push(
        `Postgres server processes ${((100 * p.postgresMs) / allIngest).toFixed(1)}% (${perSpan(p.postgresMs)} µs/span)`,
      );
    const other = [...b.otherLeaves.entries()]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 4)
      .map(([name, ms]) => `${name} ${((100 * ms) / allIngest).toFixed(1)}%`);
    if (other.length > 0) stages.push(`"other" is mostly: ${other.join(', ')}`);
    notes.push(
      `${p.kind}, where ingest CPU goes at ${Math.round(p.spansPerSecond)} spans/s with ${p.lanes} exporters (${((b.busyMs / b.totalMs) * 100).toFixed(0)}% of the server's main thread busy): ${stages.join('; ')}.`,
    );
  }
  if (profiled.length > 0)
    notes.push(
      "Stages by the code on each sample's stack (bundled frames mapped through their source maps); work resumed after an await has none of ours on its stack and is put by its leaf: the driver, PGlite's engine, Next/HTTP. zlib inflates off the main thread and is not in the profile.",
    );
  return { title: 'Decode', rows, notes };
}

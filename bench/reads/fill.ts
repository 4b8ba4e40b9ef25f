// Fresh databases for the read benchmark, filled with COPY: a new database on the Postgres server
// (dropped by close), or PGlite in memory or in a scratch folder. The rollups ingest keeps are
// then built from the copied runs by the same aggregations the maintenance code applies.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { openDatabase } from '../../db/client';
import type { DatabaseHandle } from '../../db/client';
import { migrateDatabase } from '../../db/migrate';
import { ensureProject } from '../../db/projects';
import { rebuildRollup } from '../../db/write/rollup-delta';
import { keepPatternWindows } from '../../db/write/pattern-windows';
import { PATTERN_ROLLUP } from '../../db/write/run-patterns';
import { RUN_ROLLUP } from '../../db/write/run-rollups';
import { WEEKLY_ROLLUP } from '../../db/write/weekly-rollups';
import { generateRuns, planRuns } from './dataset';
import type { DatasetSpec } from './dataset';
import { copyTarget, runLine, stepLine } from './copy-rows';
import { ensureTimePartitions } from '../../db/write/time-partitions';

export type BenchDatabaseKind = 'postgres' | 'pglite';

export const DEFAULT_SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  kind: BenchDatabaseKind;
  handle: DatabaseHandle;
  /** Drops the database (Postgres) or removes the scratch folder (PGlite). */
  close(): Promise<void>;
}

export async function openBenchDatabase(
  kind: BenchDatabaseKind,
  options: { serverUrl?: string; onDisk?: boolean } = {},
): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const dir = options.onDisk ? mkdtempSync(path.join(tmpdir(), 'loopscope-bench-')) : undefined;
    const handle = await openDatabase({ dataDir: dir });
    await migrateDatabase(handle);
    return {
      kind,
      handle,
      close: async () => {
        await handle.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = options.serverUrl ?? DEFAULT_SERVER_URL;
  const name = `loopscope_bench_reads_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), maxConnections: 4 });
  try {
    await migrateDatabase(handle);
  } catch (error) {
    await dropDatabase(serverUrl, name, handle);
    throw error;
  }
  return { kind, handle, close: () => dropDatabase(serverUrl, name, handle) };
}

async function dropDatabase(serverUrl: string, name: string, handle: DatabaseHandle) {
  await handle.close();
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

export interface FillResult {
  projectId: string;
  runs: number;
  steps: number;
  seconds: number;
}

const STEPS_PK = 'steps_project_id_run_id_ordinal_start_ms_pk';
const CHUNK_LINES = 5_000;
const PGLITE_COPY_LINES = 200_000;

/** Fills project `bench` with the dataset: steps, runs, rollups; then VACUUM ANALYZE. */
export async function fillDataset(bench: BenchDatabase, spec: DatasetSpec): Promise<FillResult> {
  const started = performance.now();
  const db = bench.handle.db;
  const projectId = await ensureProject(db, 'bench');
  const counts = planRuns(spec);
  // The weekly partitions the server would have made for these days (db/write/time-partitions.ts).
  await ensureTimePartitions(db, { now: new Date(spec.endMs), daysBack: spec.spanDays });
  // Steps without their primary key, which is then built once (a sort) instead of row by row:
  // much faster for 10M rows, and the same index in the end.
  await db.execute(sql.raw(`alter table steps drop constraint ${STEPS_PK}`));
  const steps = await copyLines(bench, 'steps', function* () {
    for (const run of generateRuns(spec, counts)) {
      for (const step of run.steps) yield stepLine(projectId, run, step);
    }
  });
  await maintenance(bench, [
    `alter table steps add constraint ${STEPS_PK} primary key (project_id, run_id, ordinal, start_ms)`,
  ]);
  let runCount = 0;
  await copyLines(bench, 'runs', function* () {
    for (const run of generateRuns(spec, counts)) {
      runCount++;
      yield runLine(projectId, run);
    }
  });
  await fillPatterns(bench, projectId);
  await rebuildRollups(bench, projectId);
  // The windows the server builds each hour (db/write/pattern-windows.ts).
  await keepPatternWindows(db, spec.endMs);
  // Autovacuum (on PGlite, the server's vacuum pass) would get there too; the benchmark should
  // not depend on when it does.
  await maintenance(bench, [
    'vacuum (analyze) runs, steps, weekly_rollups, run_rollups, run_category_rollups, run_agent_rollups, run_patterns, pattern_rollups, pattern_totals, pattern_windows',
  ]);
  return {
    projectId,
    runs: runCount,
    steps,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The rollups as ingest would have kept them: the maintenance code's own aggregations. */
export async function rebuildRollups(bench: BenchDatabase, projectId: string): Promise<void> {
  const db = bench.handle.db;
  await db.transaction(async (tx) => {
    await rebuildRollup(tx, WEEKLY_ROLLUP, projectId);
    await rebuildRollup(tx, RUN_ROLLUP, projectId);
    await rebuildRollup(tx, PATTERN_ROLLUP, projectId);
  });
}

/**
 * Each looping run's patterns (run_patterns), as derivation keeps them: its repeat, keyed by the
 * repeated call (action and arguments, so the same loop recurs across runs: a few thousand
 * patterns at 10M steps), and its revisit, keyed by the actions of its two-step cycle. Each
 * carries the run's wasted spend. Read from the copied runs and their steps by primary key.
 */
async function fillPatterns(bench: BenchDatabase, projectId: string): Promise<void> {
  await bench.handle.db.execute(sql`
    insert into run_patterns (project_id, run_id, signature, kind, agent, label, started_at, wasted_usd)
    select r.project_id, r.id, md5('repeat ' || s.action || ' ' || s.action_args), 'repeat',
      coalesce(r.agent, ''), s.action || ' ' || s.action_args, r.started_at, r.wasted_usd
    from runs r
    join steps s on s.project_id = r.project_id and s.run_id = r.id and s.ordinal = r.repeat_step
    where r.project_id = ${projectId}::uuid and r.repeat_step is not null
    union all
    select r.project_id, r.id, md5('revisit ' || least(s.action, p.action) || ' ' || greatest(s.action, p.action)),
      'revisit', coalesce(r.agent, ''), least(s.action, p.action) || ' → ' || greatest(s.action, p.action),
      r.started_at, r.wasted_usd
    from runs r
    join steps s on s.project_id = r.project_id and s.run_id = r.id and s.ordinal = r.revisit_step
    join steps p on p.project_id = r.project_id and p.run_id = r.id and p.ordinal = r.revisit_step - 1
    where r.project_id = ${projectId}::uuid and r.revisit_step is not null`);
}

/** Statements outside any transaction (VACUUM), with room to build indexes on Postgres. */
async function maintenance(bench: BenchDatabase, statements: string[]): Promise<void> {
  if (bench.kind === 'pglite') {
    const client = (bench.handle.db as unknown as { $client: PGlite }).$client;
    for (const statement of statements) await client.exec(statement);
    return;
  }
  const client = postgres(bench.handle.url!, { max: 1, onnotice: () => {} });
  try {
    await client.unsafe(`set maintenance_work_mem = '512MB'`);
    for (const statement of statements) await client.unsafe(statement);
  } finally {
    await client.end();
  }
}

/** COPY the lines into the table; returns how many were copied. */
async function copyLines(
  bench: BenchDatabase,
  table: 'runs' | 'steps',
  lines: () => Generator<string>,
): Promise<number> {
  let count = 0;
  const chunks = function* () {
    let chunk: string[] = [];
    for (const line of lines()) {
      chunk.push(line);
      count++;
      if (chunk.length >= CHUNK_LINES) {
        yield chunk.join('');
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk.join('');
  };
  if (bench.kind === 'postgres') {
    const client = postgres(bench.handle.url!, { max: 1, onnotice: () => {} });
    try {
      const writable = await client.unsafe(`copy ${copyTarget(table)} from stdin`).writable();
      await pipeline(Readable.from(chunks()), writable);
    } finally {
      await client.end();
    }
    return count;
  }
  // PGlite reads COPY input from a blob; one COPY per few hundred thousand lines bounds memory.
  const client = (bench.handle.db as unknown as { $client: PGlite }).$client;
  let parts: string[] = [];
  let partLines = 0;
  const flush = async () => {
    if (parts.length === 0) return;
    await client.query(`copy ${copyTarget(table)} from '/dev/blob'`, [], {
      blob: new Blob(parts),
    });
    parts = [];
    partLines = 0;
  };
  for (const chunk of chunks()) {
    parts.push(chunk);
    partLines += CHUNK_LINES;
    if (partLines >= PGLITE_COPY_LINES) await flush();
  }
  await flush();
  return count;
}

// The upgrade onto time-partitioned spans and steps (migration 0014), on a database as the
// previous version left it, filled with the rows the real ingest and deriver wrote from a real
// exporter's runs: every row of every table and every read answer the same after it.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { createSender } from '../e2e/support/otel';
import { emitRun, oscillation, restartLoop } from '../e2e/support/scenarios';
import { startTestServer } from '../e2e/support/test-server';
import type { DatabaseHandle } from './client';
import { MIGRATIONS_FOLDER, migrateDatabase } from './migrate';
import type { Executor } from './sql';
import { column, queryRows } from './sql';
import { createTestDatabase, rawRows, TEST_DATABASE_KINDS } from './test-database';
import { keepTimePartitions } from './write/time-partitions';

const PREVIOUS = '0013_ingest_spool';
const DAY = 86_400_000;

/** A migrations folder that ends at `lastTag`: what the previous version shipped. */
function migrationsUpTo(lastTag: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'loopscope-migrations-'));
  const journal = JSON.parse(
    readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  mkdirSync(path.join(folder, 'meta'));
  writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const { tag } of journal.entries) {
    copyFileSync(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), path.join(folder, `${tag}.sql`));
  }
  return folder;
}

/** The tables (not their partitions), projects first for the foreign key of api_keys. */
async function tableNames(db: Executor): Promise<string[]> {
  const rows = await queryRows(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname <> 'projects', c.relname`,
    z.object({ name: column.text }),
  );
  return rows.map((r) => r.name);
}

/** Every row of every table, each as its JSON text, sorted. */
async function dump(db: Executor): Promise<Map<string, string[]>> {
  const tables = new Map<string, string[]>();
  for (const name of await tableNames(db)) {
    const rows = await rawRows(db, sql.raw(`select row_to_json(t)::text as j from "${name}" t`));
    tables.set(name, rows.map((r) => String(r.j)).sort());
  }
  return tables;
}

/** Loads the tables the database has; returns those it has not (a later migration makes them). */
async function load(db: Executor, tables: Map<string, string[]>): Promise<string[]> {
  const present = new Set(await tableNames(db));
  for (const [name, rows] of tables) {
    if (rows.length === 0 || !present.has(name)) continue;
    await db.execute(
      sql`insert into ${sql.raw(`"${name}"`)} select * from json_populate_recordset(null::${sql.raw(`"${name}"`)}, ${`[${rows.join(',')}]`}::json)`,
    );
  }
  return [...tables.keys()].filter((name) => !present.has(name));
}

/**
 * The dump without what the upgraded rows cannot have the same: `updated_at` of these tables (a
 * migration fills it now), and each step's digest (0017: rows from before it have none, and are
 * rewritten at their run's next derivation).
 */
function comparable(tables: Map<string, string[]>, names: string[]): Map<string, string[]> {
  return new Map(
    [...tables].map(([name, rows]) => {
      if (!names.includes(name) && name !== 'steps') return [name, rows];
      const drop = name === 'steps' ? 'fingerprint' : 'updated_at';
      return [
        name,
        rows
          .map((row) => {
            const { [drop]: _, ...rest } = JSON.parse(row) as Record<string, unknown>;
            return JSON.stringify(rest);
          })
          .sort(),
      ];
    }),
  );
}

describe.each(TEST_DATABASE_KINDS)('the upgrade onto weekly partitions on %s', (kind) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('keeps every row of a filled database and every read the same', async () => {
    // The rows the real ingest and deriver write for a real exporter's runs, old and new.
    const source = await startTestServer(kind);
    cleanup.push(() => source.close());
    const sender = createSender({ url: source.url, key: source.key, protocol: 'proto' });
    const now = Date.now();
    const runs = [
      { runId: 'up-40d', startMs: now - 40 * DAY, loop: false },
      { runId: 'up-10d', startMs: now - 10 * DAY, loop: true },
      { runId: 'up-now', startMs: now - 3_600_000, loop: false },
    ];
    for (const run of runs) {
      emitRun(
        sender.tracer,
        run.loop
          ? oscillation(undefined, { runId: run.runId, startMs: run.startMs })
          : restartLoop({ runId: run.runId, startMs: run.startMs }),
      );
    }
    await sender.flush();
    await sender.shutdown();
    await source.settle();
    const filled = await dump(source.database.db);
    expect(filled.get('spans')?.length).toBeGreaterThan(10);
    expect(filled.get('steps')?.length).toBeGreaterThan(5);

    const reads = async (url: string, key: string) => {
      const paths = [
        '/api/v1/runs?limit=100&from=1970-01-01T00:00:00Z',
        '/api/v1/exit-reasons?from=1970-01-01T00:00:00Z',
        '/api/v1/reports/weekly',
        '/api/v1/patterns?from=1970-01-01T00:00:00Z',
        ...runs.flatMap(({ runId }) => [`/api/v1/runs/${runId}`, `/api/v1/runs/${runId}/steps`]),
      ];
      const answers: Record<string, unknown> = {};
      for (const p of paths) {
        const response = await fetch(`${url}${p}`, { headers: { authorization: `Bearer ${key}` } });
        expect(response.status, p).toBe(200);
        answers[p] = await response.json();
      }
      return answers;
    };
    const before = await reads(source.url, source.key);

    // The same rows in a database the previous version migrated.
    const folder = migrationsUpTo(PREVIOUS);
    cleanup.push(async () => rmSync(folder, { recursive: true, force: true }));
    const target: DatabaseHandle = await createTestDatabase(kind, folder);
    cleanup.push(() => target.close());
    const [partitioned] = await rawRows(
      target.db,
      sql`select count(*)::int as n from pg_partitioned_table`,
    );
    expect(partitioned?.n).toBe(0);
    const later = await load(target.db, filled);
    // pattern_totals (0015) is filled from the rollup by its migration: the same as ingest kept it.
    // The pattern windows (0018) are built by the server, not by a migration: empty in both, as
    // are the tombstones of deleted runs (0021).
    expect(later).toEqual([
      'deleted_runs',
      'deleted_traces',
      'pattern_totals',
      'pattern_window_anchors',
      'pattern_windows',
    ]);
    expect(filled.get('deleted_runs') ?? []).toEqual([]);
    expect(filled.get('pattern_windows') ?? []).toEqual([]);
    expect(filled.get('pattern_totals')?.length).toBeGreaterThan(0);

    await migrateDatabase(target);
    expect(comparable(await dump(target.db), later)).toEqual(comparable(filled, later));
    const inDefault = await rawRows(
      target.db,
      sql`select (select count(*) from spans_default)::int as spans, (select count(*) from steps_default)::int as steps`,
    );
    expect(inDefault[0]).toEqual({
      spans: filled.get('spans')?.length,
      steps: filled.get('steps')?.length,
    });

    // The first start's upkeep moves the retention window's rows into their weeks; the run of
    // 40 days ago is outside it and stays in DEFAULT, to go by key when it expires.
    const upkeep = await keepTimePartitions(target.db);
    expect(upkeep.busy).toBe(false);
    const stayed = await rawRows(
      target.db,
      sql`select (select count(*) from spans_default)::int as spans,
        (select count(*) from steps_default)::int as steps,
        (select count(*) from spans)::int as all_spans`,
    );
    const oldSpans = await rawRows(
      target.db,
      sql`select count(*)::int as n from spans where start_ms < ${now - 30 * DAY - 7 * DAY}`,
    );
    expect(stayed[0]?.spans).toBe(oldSpans[0]?.n);
    expect(Number(stayed[0]?.spans)).toBeGreaterThan(0);
    expect(upkeep.moved).toBe(
      Number(filled.get('spans')?.length) +
        Number(filled.get('steps')?.length) -
        Number(stayed[0]?.spans) -
        Number(stayed[0]?.steps),
    );
    expect(comparable(await dump(target.db), later)).toEqual(comparable(filled, later));

    const upgraded = await startTestServer(kind, { database: target });
    cleanup.push(() => upgraded.close());
    expect(await reads(upgraded.url, upgraded.key)).toEqual(before);
  });
});

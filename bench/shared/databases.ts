// Throwaway databases for a bench run: a fresh database on the Postgres server (dropped at the
// end) or a PGlite data folder in a temp directory (removed at the end). A server process can
// be pointed at one (`serverEnv`), and this process can open it for direct work (COPY, the write
// stage, counts) — for PGlite only while no server holds the folder.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { openDatabase } from '../../db/client';
import type { Database } from '../../db/client';
import { migrateDatabase } from '../../db/migrate';
import type { DatabaseKind } from './report';

export interface CopyInput {
  table: string;
  columns: readonly string[];
  /** COPY text format, one line per row. */
  text: string;
}

export interface OpenDatabase {
  kind: DatabaseKind;
  db: Database;
  /** Rows of one plain SQL statement. */
  query(text: string): Promise<Record<string, unknown>[]>;
  /** COPYs into each table in one transaction, each table's rows in one write. */
  copy(inputs: readonly CopyInput[]): Promise<void>;
  close(): Promise<void>;
}

export interface BenchDatabase {
  kind: DatabaseKind;
  /** What a server process needs to use this database. */
  serverEnv: Record<string, string>;
  /** PGlite only: the data folder. */
  dataDir?: string;
  /** Postgres only: the database's URL. */
  url?: string;
  /** Opens (and migrates) the database in this process. */
  open(options?: { maxConnections?: number }): Promise<OpenDatabase>;
  /** Drops the database or removes the folder. */
  drop(): Promise<void>;
}

export async function createBenchDatabase(
  kind: DatabaseKind,
  postgresUrl: string,
): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const root = mkdtempSync(path.join(tmpdir(), 'loopscope-bench-'));
    const dataDir = path.join(root, 'data');
    return {
      kind,
      dataDir,
      serverEnv: { LOOPSCOPE_DATA_DIR: dataDir, DATABASE_URL: '' },
      open: () => openPglite(dataDir),
      drop: async () => rmSync(root, { recursive: true, force: true }),
    };
  }
  const name = `loopscope_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(postgresUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    serverEnv: { DATABASE_URL: url.toString() },
    open: (options) => openPostgres(url.toString(), options?.maxConnections ?? 10),
    drop: async () => {
      const dropper = postgres(postgresUrl, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

async function openPostgres(url: string, maxConnections: number): Promise<OpenDatabase> {
  const handle = await openDatabase({ databaseUrl: url, maxConnections });
  await migrateDatabase(handle);
  // The handle's own client: its sockets are set up as ingest's are (Nagle off, see db/client).
  const raw = (handle.db as unknown as { $client: postgres.Sql }).$client;
  return {
    kind: 'postgres',
    db: handle.db,
    query: async (text) => [...(await raw.unsafe(text))] as Record<string, unknown>[],
    copy: async (inputs) => {
      await raw.begin(async (tx) => {
        for (const input of inputs) {
          const writable = await tx
            .unsafe(`copy ${input.table} (${input.columns.join(', ')}) from stdin`)
            .writable();
          // One write: postgres.js sends each write as its own CopyData message.
          await pipeline(Readable.from([Buffer.from(input.text)]), writable);
        }
      });
    },
    close: () => handle.close(),
  };
}

async function openPglite(dataDir: string): Promise<OpenDatabase> {
  const handle = await openDatabase({ dataDir });
  await migrateDatabase(handle);
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  return {
    kind: 'pglite',
    db: handle.db,
    query: async (text) => (await client.query<Record<string, unknown>>(text)).rows,
    copy: async (inputs) => {
      await client.transaction(async (tx) => {
        for (const input of inputs) {
          await tx.query(`copy ${input.table} (${input.columns.join(', ')}) from '/dev/blob'`, [], {
            blob: new Blob([input.text]),
          });
        }
      });
    },
    close: () => handle.close(),
  };
}

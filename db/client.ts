// One database handle over either driver: PGlite (embedded, in a data folder or in memory) or a
// Postgres server through postgres.js. The schema and migrations are the same for both.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: Database;
  /** Where the data lives, for logs (never includes a password). */
  location: string;
  /** The server's URL (postgres only), for work that needs a connection of its own. */
  url?: string;
  close(): Promise<void>;
}

export interface DatabaseConfig {
  /** A Postgres server; when absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder; when absent (and no URL), an in-memory database. */
  dataDir?: string;
  /** postgres.js pool size. */
  maxConnections?: number;
}

export async function openDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.maxConnections ?? 10);
  return openPglite(config.dataDir);
}

function openPostgres(url: string, max: number): DatabaseHandle {
  // `socket` is a postgres.js option its type declarations leave out.
  const options = { max, onnotice: () => {}, connect_timeout: 10, socket: connectNoDelay };
  const client = postgres(url, options as postgres.Options<Record<string, never>>);
  return {
    kind: 'postgres',
    db: drizzlePostgres({ client, schema }) as unknown as Database,
    location: redactUrl(url),
    url,
    close: () => client.end({ timeout: 5 }),
  };
}

async function openPglite(dataDir: string | undefined): Promise<DatabaseHandle> {
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const client = dataDir ? await PGlite.create({ dataDir }) : await PGlite.create();
    return {
      kind: 'pglite',
      db: drizzlePglite({ client, schema }) as unknown as Database,
      location: dataDir ? `PGlite in ${dataDir}` : 'PGlite in memory',
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * postgres.js leaves Nagle's algorithm on; a message written in two parts (COPY data, then its
 * end) then waits for the server's delayed ACK, about 40 ms. Connect with it off.
 */
function connectNoDelay(options: {
  host: string[];
  port: number[];
  path?: string | false;
}): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = options.path
      ? connect(options.path)
      : connect(options.port[0] ?? 5432, options.host[0] ?? 'localhost');
    socket.setNoDelay(true);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The data folder ${dataDir} is in use by another Loopscope process (pid ${pid}). PGlite allows one process per folder: stop that process, or set LOOPSCOPE_DATA_DIR to another folder, or use DATABASE_URL for a Postgres server that many processes can share.`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** PGlite must have one process per data folder; a second one fails fast and says why. */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'loopscope.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockFile);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new DataDirInUseError(dataDir, holder);
      }
      unlinkSync(lockFile); // left by a process that died (kill -9): take it over
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}`);
}

export function dataDirHolder(dataDir: string): number | null {
  try {
    const holder = Number.parseInt(readFileSync(path.join(dataDir, 'loopscope.pid'), 'utf8'), 10);
    return Number.isInteger(holder) && isAlive(holder) ? holder : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'a Postgres server';
  }
}

/** Whether the database answers at all (for health checks). */
export async function ping(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}

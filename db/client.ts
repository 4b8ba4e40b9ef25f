// One database handle over either driver: PGlite (embedded, in a data folder or in memory) or a
// Postgres server through postgres.js. The schema and migrations are the same for both.
import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { registerArrayTypes } from './pg-arrays';
import type { TypeTables } from './pg-arrays';
import { PgliteThread } from './pglite-thread';
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
  const client = postgresClient(url, max);
  registerArrayTypes(client as unknown as TypeTables);
  return {
    kind: 'postgres',
    db: drizzlePostgres({ client, schema }) as unknown as Database,
    location: redactUrl(url),
    url,
    close: () => client.end({ timeout: 5 }),
  };
}

/** A postgres.js pool as every connection here is made: to any of the URL's hosts, no Nagle. */
export function postgresClient(url: string, max: number): postgres.Sql {
  const { hosts, firstHostUrl } = splitHosts(url);
  // `socket` is a postgres.js option its type declarations leave out. No `fetch_types`: see
  // pg-arrays.ts, which registers the array types instead.
  const options = {
    max,
    onnotice: () => {},
    connect_timeout: 10,
    fetch_types: false,
    socket: connectNoDelay(hosts),
    // Every query here is a small indexed read or write, whose latency parallel workers only add
    // to: the patterns read of a day at 10M steps ran 13.9 ms with two, 5.1 without (docs/scale.md).
    connection: { max_parallel_workers_per_gather: '0' },
  };
  return postgres(firstHostUrl, options as postgres.Options<Record<string, never>>);
}

async function openPglite(dataDir: string | undefined): Promise<DatabaseHandle> {
  const release = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    // On a thread of its own: Postgres in WASM would otherwise hold this thread for every query.
    const client = await PgliteThread.start(dataDir);
    if (dataDir) keepPrivate(dataDir);
    return {
      kind: 'pglite',
      db: drizzlePglite({ client: client.asClient(), schema }) as unknown as Database,
      location: dataDir ? `PGlite in ${dataDir}` : 'PGlite in memory',
      close: async () => {
        await client.close();
        if (dataDir) keepPrivate(dataDir);
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

export interface HostPort {
  host: string;
  port: number;
}

/**
 * The hosts of a URL that names several (`postgres://u@a:5432,b:5432/db`, as libpq takes them for
 * a primary and its standbys), and the URL with only the first, which is what postgres.js is given:
 * with several it retries a failed connect at once and for ever, so a query waits, spinning,
 * until some host accepts. The socket below walks the hosts instead.
 */
export function splitHosts(url: string): { hosts: HostPort[]; firstHostUrl: string } {
  const match = /^([a-z]+:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/i.exec(url);
  const list = match?.[3] ?? '';
  if (!match || !list.includes(',')) return { hosts: [], firstHostUrl: url };
  const hosts = list.split(',').map((entry) => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) return { host: bracketed[1] ?? '', port: Number(bracketed[2] ?? 5432) };
    const colon = entry.lastIndexOf(':');
    return colon < 0
      ? { host: entry, port: 5432 }
      : { host: entry.slice(0, colon), port: Number(entry.slice(colon + 1)) };
  });
  return { hosts, firstHostUrl: `${match[1]}${match[2] ?? ''}${list.split(',')[0]}${match[4]}` };
}

type SocketFactory = (options: {
  host: string[];
  port: number[];
  path?: string | false;
}) => Socket | Promise<Socket>;

/**
 * postgres.js leaves Nagle's algorithm on; a message written in two parts (COPY data, then its
 * end) then waits for the server's delayed ACK, about 40 ms. Connect with it off.
 *
 * The socket is handed over while it connects (writes wait for it): a failed connect then reaches
 * postgres.js as the socket's error and close, which return the connection to its pool. A factory
 * that rejects instead leaves the connection "connecting" for good, one pool slot lost per failed
 * attempt, until no query runs at all after an outage.
 *
 * With several hosts, each new connection starts at the host after the last one's start and
 * moves on past hosts that refuse; the last one tried is handed over connecting, so when all
 * refuse the query fails as with one host. A host that accepts but is not what
 * `target_session_attrs` asks for (a standby, for `read-write`) fails that connection's query,
 * and the next connection starts elsewhere: after a failover the pool finds the new primary.
 */
function connectNoDelay(hosts: HostPort[]): SocketFactory {
  let next = 0;
  return (options) => {
    if (options.path) return noDelay(connect(options.path));
    if (hosts.length < 2) {
      return noDelay(connect(options.port[0] ?? 5432, options.host[0] ?? 'localhost'));
    }
    const start = next++ % hosts.length;
    const order = hosts.map((_, k) => hosts[(start + k) % hosts.length] as HostPort);
    return firstThatConnects(order);
  };
}

function noDelay(socket: Socket): Socket {
  socket.setNoDelay(true);
  return socket;
}

async function firstThatConnects(order: HostPort[]): Promise<Socket> {
  for (const [k, { host, port }] of order.entries()) {
    const socket = noDelay(connect(port, host));
    if (k === order.length - 1) return socket;
    const connected = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5_000);
      socket.once('connect', () => (clearTimeout(timer), resolve(true)));
      socket.once('error', () => (clearTimeout(timer), resolve(false)));
    });
    if (connected) return socket;
    socket.destroy();
  }
  throw new Error('no host to connect to');
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The data folder ${dataDir} is in use by another Loopscope process (pid ${pid}). PGlite allows one process per folder: stop that process, or set LOOPSCOPE_DATA_DIR to another folder, or use DATABASE_URL for a Postgres server that many processes can share.`,
    );
    this.name = 'DataDirInUseError';
  }
}

/**
 * PGlite creates its files readable and writable by everyone (0666, whatever the umask): the
 * folder is kept 0700, so no other user reaches them, and each file is cut back to its owner.
 */
function keepPrivate(dataDir: string): void {
  chmodSync(dataDir, 0o700);
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      const mode = statSync(file).mode & 0o777;
      if (mode & 0o077) chmodSync(file, mode & 0o700);
    }
  };
  visit(dataDir);
}

/** PGlite must have one process per data folder; a second one fails fast and says why. */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const lockFile = path.join(dataDir, 'loopscope.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, lockContent(process.pid));
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
      const holder = readLock(lockFile);
      if (holder && holder.pid !== process.pid && holds(holder)) {
        throw new DataDirInUseError(dataDir, holder.pid);
      }
      unlinkSync(lockFile); // left by a process that died (kill -9): take it over
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}`);
}

export function dataDirHolder(dataDir: string): number | null {
  const holder = readLock(path.join(dataDir, 'loopscope.pid'));
  return holder && holds(holder) ? holder.pid : null;
}

interface LockHolder {
  pid: number;
  /** When that process started (Linux: clock ticks since boot), to tell a reused pid apart. */
  startTime: string | null;
}

function lockContent(pid: number): string {
  const started = procStat(pid)?.startTime;
  return started ? `${pid} ${started}` : String(pid);
}

function readLock(lockFile: string): LockHolder | null {
  try {
    const [pid, startTime] = readFileSync(lockFile, 'utf8').trim().split(/\s+/);
    const holder = Number.parseInt(pid ?? '', 10);
    return Number.isInteger(holder) ? { pid: holder, startTime: startTime ?? null } : null;
  } catch {
    return null;
  }
}

/**
 * Whether the process named in the lock still holds it. A process killed with SIGKILL stays a
 * zombie until its parent reaps it, and its pid may be reused by another program: where /proc
 * tells, neither counts, only the same process (same start time) still running.
 */
function holds(holder: LockHolder): boolean {
  const stat = procStat(holder.pid);
  if (stat === undefined) return isAlive(holder.pid); // no /proc here: the signal check
  if (stat === null || stat.state === 'Z' || stat.state === 'X') return false;
  if (holder.startTime !== null) return stat.startTime === holder.startTime;
  // A lock from before start times were written: it is ours only if a Node process holds it.
  try {
    return readFileSync(`/proc/${holder.pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return false;
  }
}

/** State and start time from /proc/<pid>/stat; null when no such process, undefined without /proc. */
function procStat(pid: number): { state: string; startTime: string } | null | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    return statSync('/proc/self/stat', { throwIfNoEntry: false }) ? null : undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : undefined;
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
    const { hosts, firstHostUrl } = splitHosts(url);
    const parsed = new URL(firstHostUrl);
    if (parsed.password) parsed.password = '***';
    if (hosts.length === 0) return parsed.toString();
    const list = hosts.map(
      ({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`,
    );
    return parsed.toString().replace(parsed.host, list.join(','));
  } catch {
    return 'a Postgres server';
  }
}

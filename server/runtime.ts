// The process-wide state the route handlers share with the server that booted them. It lives on
// globalThis because Next bundles route code separately from the server's own modules.
import path from 'node:path';
import type { Database, DatabaseHandle } from '../db/client';
import { describeError, isDatabaseUnavailable } from '../db/errors';
import { authenticateKey } from '../db/projects';
import type { KeyScope } from '../db/projects';
import { DiskHold } from '../ingest/hold';
import type { RecentKeys } from '../ingest/recent-keys';
import { Admission } from '../ingest/admission';
import type { OwnListeners } from '../lib/alerts/webhook-address';
import { IngestSpool } from '../ingest/spool';
import type { HeldBack } from '../ingest/spool-worker';
import type { RunningSpoolWorkers } from './spool-workers';
import type { HoldMover } from './hold-mover';
import type { ReadReplica } from './read-replica';
import type { ReadSource } from '../lib/api-types';
import { Deriver } from '../derive/deriver';
import { giveVerdict } from '../derive/give-verdict';
import { settleRuns } from '../derive/settle-runs';
import type { GivenVerdict } from '../db/write/run-verdicts';
import type { DeriveContext } from '../derive/derive-runs';
import type { OtlpEndpointDeps } from '../ingest/otlp-endpoint';
import { RunSpanCache } from '../db/write/run-span-cache';
import { AppError } from '../lib/app-error';
import type { LoopSettings } from '../lib/settings';
import type { PriceTable } from '../trajectory/pricing';
import { AlertSender } from './alert-sender';
import type { AlertConfig, ServerConfig } from './config';

export interface Runtime {
  config: ServerConfig;
  status: 'starting' | 'ready' | 'stopping';
  handle: DatabaseHandle | null;
  lastError: string | null;
  prices: PriceTable;
  settings: LoopSettings;
  admission: Admission;
  /** Accepted export requests waiting to be stored (ingest/spool.ts). */
  spool: IngestSpool;
  /** Its workers, once the database is ready. */
  spoolWorkers: RunningSpoolWorkers | null;
  /** Requests held on disk while a Postgres server cannot answer (ingest/hold.ts), or null. */
  hold: DiskHold | null;
  holdMover: HoldMover | null;
  /** Keys let in lately: let in again while the database is away, for the hold. */
  recentKeys: RecentKeys;
  /** The standby the dashboard reads from (DATABASE_READ_URL), or null. */
  readReplica: ReadReplica | null;
  deriver: Deriver;
  /** The key webhook secrets are sealed under (lib/alerts/secret-box.ts). */
  alertKey: Buffer;
  alertSender: AlertSender;
  /** Lets the CLI on this machine manage keys while the server holds the PGlite folder. */
  adminToken: string | null;
  log: (message: string) => void;
}

const KEY = Symbol.for('loopscope.runtime');
type Holder = { [KEY]?: Runtime };

export function setRuntime(runtime: Runtime): void {
  (globalThis as Holder)[KEY] = runtime;
}

export function getRuntime(): Runtime {
  const runtime = (globalThis as Holder)[KEY];
  if (!runtime) {
    throw new AppError('unavailable', 'Loopscope is starting; retry shortly', {
      retryAfterSeconds: 2,
    });
  }
  return runtime;
}

export function createAdmission(config: ServerConfig): Admission {
  return new Admission(config.ingest);
}

/** The disk hold of a server on Postgres (in its data folder), or null when none is set. */
export function createHold(config: ServerConfig): DiskHold | null {
  return config.holdBytes > 0
    ? new DiskHold(path.join(config.dataDir, 'held'), config.holdBytes)
    : null;
}

export function createSpool(config: ServerConfig): IngestSpool {
  return new IngestSpool(requireDatabase, config.spool);
}

/** Requests waiting in the spool as this process last counted them; 0 before it is ready. */
export function spoolBacklogNow(): number {
  const runtime = (globalThis as Holder)[KEY];
  if (!runtime || runtime.status !== 'ready') return 0;
  return spooledRequests(runtime.spool);
}

/** Requests waiting in the spool to be stored, not counting the stuck ones left for an operator. */
export function spooledRequests(spool: IngestSpool): number {
  const { requests, stuck } = spool.backlog;
  return Math.max(0, requests - stuck);
}

// One per database: a cached row is only ever checked against the database it was read from.
const spanCaches = new WeakMap<DatabaseHandle, RunSpanCache>();

function spanCacheOf(handle: DatabaseHandle | null): RunSpanCache | undefined {
  if (!handle) return undefined;
  let cache = spanCaches.get(handle);
  if (!cache) spanCaches.set(handle, (cache = new RunSpanCache()));
  return cache;
}

export function deriveContext(runtime: Runtime): DeriveContext {
  return {
    prices: runtime.prices,
    settings: runtime.settings,
    spanCache: spanCacheOf(runtime.handle),
    onFailure: ({ projectId, runId, error }) =>
      runtime.log(
        `run ${JSON.stringify(runId)} of project ${projectId} could not be derived and is quarantined: ${error}`,
      ),
  };
}

/** The deriver of this process, reading the runtime's current database and settings. */
export function createDeriver(runtime: () => Runtime): Deriver {
  return new Deriver(
    () => {
      const r = runtime();
      return r.status === 'ready' && r.handle ? r.handle.db : null;
    },
    () => deriveContext(runtime()),
    (error) => runtime().log(`deriving runs failed: ${describeError(error)}`),
    // PGlite's one connection runs one transaction at a time: no batch holds marks anyone waits
    // on, and shorter batches only add their overhead (derive/derive-batch-size.ts).
    () => runtime().handle?.kind === 'postgres',
  );
}

/** The sender of this process's alert outbox, reading the runtime's current database. */
/** Where this server listens, which no webhook may reach. */
export function ownListeners(runtime: Pick<Runtime, 'config'>): OwnListeners {
  const { config } = runtime;
  return {
    ports: [config.port, ...(config.grpcPort === null ? [] : [config.grpcPort])],
    publicHost: config.publicUrl ? new URL(config.publicUrl).host.toLowerCase() : null,
  };
}

export function createAlertSender(
  runtime: () => Runtime,
  key: Buffer,
  config: AlertConfig,
): AlertSender {
  return new AlertSender({
    db: () => {
      const current = runtime();
      return current.status === 'ready' && current.handle ? current.handle.db : null;
    },
    key,
    config,
    linkBase: () => {
      const { config } = runtime();
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      return config.publicUrl ?? `http://${host}:${config.port}`;
    },
    own: () => ownListeners(runtime()),
    log: (message) => runtime().log(message),
  });
}

/**
 * Stores the project's spooled requests and derives what a read is about to read (the project's
 * marked runs, or one run), so every answer includes every span acknowledged before it.
 */
export async function settle(
  projectId: string,
  runId?: string,
  options: { waitForSpoolMs?: number } = {},
): Promise<void> {
  // The project's spooled requests first (a read of one run: those of its traces), when few
  // wait; when many do, the read answers from what is stored and the dashboard says how far
  // behind (health's `spool`). An answer that must reflect what its caller just exported (the
  // guard) waits for the workers instead.
  const workers = getRuntime().spoolWorkers?.workers;
  const db = requireDatabase();
  if (options.waitForSpoolMs !== undefined) {
    await workers?.storedUpToNow(projectId, { db, timeoutMs: options.waitForSpoolMs, runId });
  } else {
    await workers?.catchUp(projectId, { db, runId });
  }
  await settleRuns(requireDatabase(), deriveContext(getRuntime()), projectId, { runId });
}

/** Records (or, with null, takes back) a person's verdict and derives the run with it. */
export async function recordVerdict(
  projectId: string,
  runId: string,
  given: GivenVerdict | null,
): Promise<void> {
  await giveVerdict(requireDatabase(), deriveContext(getRuntime()), projectId, runId, given);
}

/** The database once migrated and ready; 503 with Retry-After before that. */
export function requireDatabase(): Database {
  const runtime = getRuntime();
  if (runtime.status !== 'ready' || !runtime.handle) {
    throw new AppError('unavailable', 'the database is not ready; retry shortly', {
      retryAfterSeconds: 2,
    });
  }
  return runtime.handle.db;
}

/**
 * The database a dashboard read uses: the standby of DATABASE_READ_URL while it answers and is
 * close enough behind (server/read-replica.ts), else the primary.
 */
export function requireReadDatabase(): Database {
  const primary = requireDatabase();
  return getRuntime().readReplica?.database() ?? primary;
}

/** Where the dashboard's reads go now, or null when no standby is set (the layout's notice). */
export function readSourceNow(): ReadSource | null {
  const runtime = (globalThis as Holder)[KEY];
  return runtime?.readReplica?.describe() ?? null;
}

/** Whose spooled requests wait for their runs' derivation to catch up. */
export function deriveHeldBack({ deriver, config }: Runtime): HeldBack {
  return {
    everyone: deriver.backlog > 4 * config.deriveBacklog,
    projects: deriver.projectsOver(config.deriveBacklog),
  };
}

function spoolShareRefusal(runtime: Runtime, projectId: string): string | null {
  const { deriver, config, spool } = runtime;
  const waiting = deriver.backlogOf(projectId);
  if (waiting <= config.deriveBacklog && deriver.backlog <= 4 * config.deriveBacklog) return null;
  const share = spool.shareOf(projectId);
  const { maxRequests, maxBytes } = spool.limits;
  if (2 * share.requests < maxRequests && 2 * share.bytes < maxBytes) return null;
  return `${share.requests} requests of this project wait to be stored while ${waiting} of its runs wait to be derived`;
}

export function otlpEndpointDeps(): OtlpEndpointDeps {
  const runtime = getRuntime();
  return {
    database: requireDatabase,
    authenticate: (key) => authenticateRecalling(runtime, key),
    // Derivation behind holds a project's requests in the spool (spool-workers.ts); the door
    // refuses the project only once it holds half the spool's bound, leaving the rest to others.
    overloaded: (projectId) => (projectId === null ? null : spoolShareRefusal(runtime, projectId)),
    admission: runtime.admission,
    spool: runtime.spool,
    hold: runtime.hold ?? undefined,
    body: {
      maxBytes: runtime.config.maxBodyBytes,
      timeoutMs: runtime.config.bodyTimeoutMs,
      minBytesPerSecond: runtime.config.bodyMinBytesPerSecond,
    },
    log: runtime.log,
  };
}

/** The key's scope; while the database is away and there is a hold, a key let in lately. */
async function authenticateRecalling(runtime: Runtime, key: string): Promise<KeyScope> {
  try {
    const scope = await authenticateKey(requireDatabase(), key);
    runtime.recentKeys.remember(key, scope);
    return scope;
  } catch (error) {
    if (!runtime.hold || !isDatabaseUnavailable(error)) throw error;
    const scope = runtime.recentKeys.recall(key);
    if (!scope) throw error;
    return scope;
  }
}

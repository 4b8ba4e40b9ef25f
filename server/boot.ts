// Start-up: configuration, the database (open, migrate, prices), the first API key, and the
// timer that ends abandoned runs. A Postgres server that is down is retried until it returns.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../db/client';
import type { DatabaseHandle } from '../db/client';
import { describeError, isDatabaseUnavailable } from '../db/errors';
import { migrateDatabase } from '../db/migrate';
import { countApiKeys, createApiKey, ensureApiKey, ensureProject } from '../db/projects';
import { retryQuarantinedRuns } from '../db/write/derive-failures';
import { retryStuckRequests } from '../db/write/ingest-spool';
import type { Executor } from '../db/sql';
import { lockStartUpSeeding } from '../db/write/xact-locks';
import { syncPrices } from '../db/write/sync-prices';
import { expireRuns, retentionBatch } from '../db/write/expire-runs';
import { keepPatternWindows } from '../db/write/pattern-windows';
import { keepTimePartitions } from '../db/write/time-partitions';
import { vacuumPassRunsNow, vacuumWhereDue } from '../db/write/pglite-vacuum';
import { endIdleRuns } from '../derive/end-idle-runs';
import { startLoopLagMonitor } from '../ingest/loop-lag';
import { refreshQuarantinedFacts } from '../ingest/refresh-facts';
import { RecentKeys } from '../ingest/recent-keys';
import { newAlertKey, parseAlertKey } from '../lib/alerts/secret-box';
import { readLoopSettings, readPriceFile } from '../lib/settings';
import { PriceTable } from '../trajectory/pricing';
import type { ServerConfig } from './config';
import { startHoldMover } from './hold-mover';
import { ReadReplica } from './read-replica';
import { startSpoolWorkers } from './spool-workers';
import {
  createAdmission,
  createAlertSender,
  createDeriver,
  createHold,
  createSpool,
  getRuntime,
  setRuntime,
  spooledRequests,
} from './runtime';
import type { Runtime } from './runtime';

export const DEFAULT_PROJECT = 'default';

export function createRuntime(config: ServerConfig, log: (message: string) => void): Runtime {
  const prices = readPriceFile(config.pricesFile);
  const alertKey = readAlertKey(config);
  const runtime: Runtime = {
    config,
    status: 'starting',
    handle: null,
    lastError: null,
    prices: new PriceTable(prices),
    settings: readLoopSettings(config.settingsFile),
    admission: createAdmission(config),
    spool: createSpool(config),
    spoolWorkers: null,
    hold: createHold(config),
    holdMover: null,
    recentKeys: new RecentKeys(),
    readReplica: null,
    deriver: createDeriver(getRuntime),
    alertKey,
    alertSender: createAlertSender(getRuntime, alertKey, config.alerts),
    adminToken: null,
    log,
  };
  setRuntime(runtime);
  startLoopLagMonitor();
  return runtime;
}

/** Opens and prepares the database; retries while a Postgres server cannot be reached. */
export async function connectDatabase(
  runtime: Runtime,
  onFirstKey: (key: string) => void,
): Promise<void> {
  const { config } = runtime;
  for (let attempt = 1; runtime.status === 'starting'; attempt++) {
    let handle: DatabaseHandle | null = null;
    try {
      handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      await migrateDatabase(handle);
      // The weeks' partitions exist before the first span arrives (after an upgrade this also
      // moves the retention window's rows out of DEFAULT, once). Should it fail (another
      // server's long transaction holding a lock), rows wait in DEFAULT for the hourly upkeep.
      await keepTimePartitions(handle.db).then(
        ({ moved }) => {
          if (moved > 0) runtime.log(`Moved ${moved} row(s) into weekly partitions`);
        },
        (error: unknown) => {
          if (isDatabaseUnavailable(error)) throw error;
          runtime.log(`Partition upkeep failed, retried hourly: ${describeError(error)}`);
        },
      );
      const prices = readPriceFile(config.pricesFile);
      // Servers that start together on one database take turns: one seeds prices and keys, the
      // others then find them (a unique key inserted twice at once would stop the second).
      const firstKey = await handle.db.transaction(async (tx) => {
        await lockStartUpSeeding(tx);
        await syncPrices(tx, prices);
        return bootstrapKeys(tx, config, runtime.log);
      });
      if (firstKey) onFirstKey(firstKey);
      // A new version may read and derive what an old one could not: every quarantined run's
      // spans are read again and the run is tried again, and every stuck request is.
      await refreshQuarantinedFacts(handle.db);
      await retryQuarantinedRuns(handle.db);
      const stuck = await retryStuckRequests(handle.db);
      if (stuck > 0) runtime.log(`${stuck} stuck request(s) in the spool are tried again`);
      if (handle.kind === 'pglite') runtime.adminToken = writeAdminToken(config.dataDir);
      runtime.handle = handle;
      runtime.lastError = null;
      runtime.status = 'ready';
      runtime.deriver.start();
      runtime.alertSender.start();
      // Requests spooled before a crash or a stop are picked up here.
      runtime.spoolWorkers = await startSpoolWorkers(runtime, handle);
      // Requests held on disk while the database was away, by this process or one before it.
      if (runtime.hold) {
        await runtime.hold.open();
        runtime.holdMover ??= startHoldMover(
          {
            database: () => (runtime.status === 'ready' ? (runtime.handle?.db ?? null) : null),
            spool: runtime.spool,
            log: runtime.log,
          },
          runtime.hold,
        );
      }
      runtime.log(`Database ready: ${handle.location}`);
      if (config.readDatabaseUrl && !runtime.readReplica) {
        const standby = await openDatabase({ databaseUrl: config.readDatabaseUrl });
        runtime.readReplica = new ReadReplica(standby, () => runtime.handle?.db ?? null);
        runtime.readReplica.start();
        runtime.log(`Dashboard reads from the standby at ${standby.location} while it keeps up`);
      }
      return;
    } catch (error) {
      await handle?.close().catch(() => {});
      if (!config.databaseUrl || !isDatabaseUnavailable(error)) throw error;
      runtime.lastError = (error as Error).message;
      if (attempt === 1 || attempt % 15 === 0) {
        runtime.log(`Database not reachable (${runtime.lastError}); retrying every 2 s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

/** The key made at a first start without LOOPSCOPE_INIT_API_KEY, else null. */
async function bootstrapKeys(
  db: Executor,
  config: ServerConfig,
  log: (message: string) => void,
): Promise<string | null> {
  if (config.initApiKey) {
    const added = await ensureApiKey(db, DEFAULT_PROJECT, config.initApiKey);
    log(`LOOPSCOPE_INIT_API_KEY ${added ? 'added to' : 'already in'} project "${DEFAULT_PROJECT}"`);
    return null;
  }
  if ((await countApiKeys(db)) > 0) return null;
  const projectId = await ensureProject(db, DEFAULT_PROJECT);
  const { key } = await createApiKey(db, projectId, { name: 'first start' });
  return key;
}

/**
 * LOOPSCOPE_ALERT_KEY, else the key file in the data folder, made at the first start. Servers
 * that share one Postgres database must share the key too (set the variable on each).
 */
function readAlertKey(config: ServerConfig): Buffer {
  if (config.alerts.keyText !== undefined) {
    const key = parseAlertKey(config.alerts.keyText);
    if (key) return key;
  }
  const file = path.join(config.dataDir, 'alert-key');
  try {
    const key = parseAlertKey(readFileSync(file, 'utf8').trim());
    if (key) return key;
    throw new Error(`${file} does not hold a 32-byte key (64 hex digits)`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = newAlertKey();
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
  return key;
}

function writeAdminToken(dataDir: string): string {
  const token = randomBytes(32).toString('base64url');
  writeFileSync(path.join(dataDir, 'admin-token'), token, { mode: 0o600 });
  return token;
}

export function startIdleSweeper(runtime: Runtime, everyMs = 60_000): NodeJS.Timeout {
  const timer = setInterval(() => {
    const handle = runtime.handle;
    if (runtime.status !== 'ready' || !handle) return;
    endIdleRuns(handle.db, { prices: runtime.prices, settings: runtime.settings })
      .then((ended) => {
        if (ended > 0) runtime.log(`Ended ${ended} idle run(s) as unknown`);
      })
      .catch((error: unknown) => runtime.log(`Idle sweep failed: ${describeError(error)}`));
  }, everyMs);
  timer.unref();
  return timer;
}

/** Every hour, the weeks ahead (and a longer retention's weeks back) get their partitions. */
export function startPartitionUpkeep(runtime: Runtime, everyMs = 3_600_000): NodeJS.Timeout {
  const timer = setInterval(() => {
    const handle = runtime.handle;
    if (runtime.status !== 'ready' || !handle) return;
    keepTimePartitions(handle.db)
      .then(({ created }) => {
        if (created.length > 0) runtime.log(`Created partitions ${created.join(', ')}`);
      })
      .catch((error: unknown) => runtime.log(`Partition upkeep failed: ${describeError(error)}`));
  }, everyMs);
  timer.unref();
  return timer;
}

/**
 * Runs `work` every `everyMs` and once `firstMs` after start, while the database is ready, never
 * two at once; its failure is logged as `what` failed.
 */
function startRepeating(
  runtime: Runtime,
  what: string,
  { everyMs, firstMs }: { everyMs: number; firstMs: number },
  work: (handle: NonNullable<Runtime['handle']>) => Promise<void>,
): NodeJS.Timeout {
  let running = false;
  const run = () => {
    const handle = runtime.handle;
    if (running || runtime.status !== 'ready' || !handle) return;
    running = true;
    work(handle)
      .catch((error: unknown) => runtime.log(`${what} failed: ${describeError(error)}`))
      .finally(() => (running = false));
  };
  const first = setTimeout(run, Math.min(firstMs, everyMs));
  first.unref();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return timer;
}

/**
 * Every `everyMs` (and a second after start), each project's pattern windows are built for the
 * hour begun and the next (db/write/pattern-windows.ts); until then the patterns read sums the
 * window itself.
 */
export function startPatternWindowUpkeep(runtime: Runtime, everyMs = 60_000): NodeJS.Timeout {
  return startRepeating(
    runtime,
    'Pattern window upkeep',
    { everyMs, firstMs: 1_000 },
    async (handle) => {
      await keepPatternWindows(handle.db, Date.now());
    },
  );
}

/**
 * PGlite's autovacuum: every `everyMs` (and a minute after start) the tables due are analysed and
 * vacuumed (db/write/pglite-vacuum.ts). PGlite's one engine would hold ingest and reads for each
 * table's vacuum, so while the spool works off a backlog the pass waits, up to 15 minutes. A
 * Postgres server runs its own autovacuum, in processes of its own.
 */
export function startPgliteVacuum(runtime: Runtime, everyMs = 60_000): NodeJS.Timeout {
  let lastPassAt = Date.now();
  return startRepeating(runtime, 'PGlite vacuum', { everyMs, firstMs: 60_000 }, async (handle) => {
    if (handle.kind !== 'pglite') return;
    if (!vacuumPassRunsNow(spooledRequests(runtime.spool), Date.now() - lastPassAt)) return;
    await vacuumWhereDue(handle.db);
    lastPassAt = Date.now();
  });
}

/**
 * Retention: every `everyMs` (and 30 s after start) each project's runs older than its
 * `retentionDays` go. With many servers on one database, one sweeps while the others skip.
 */
export function startRetentionSweeper(runtime: Runtime, everyMs: number): NodeJS.Timeout {
  return startRepeating(
    runtime,
    'Retention sweep',
    { everyMs, firstMs: 30_000 },
    async (handle) => {
      const { removed, droppedPartitions } = await expireRuns(handle.db, {
        batch: retentionBatch(handle.kind),
      });
      const total = [...removed.values()].reduce((a, b) => a + b, 0);
      if (total > 0) runtime.log(`Retention removed ${total} run(s) past their project's days`);
      if (droppedPartitions.length > 0) {
        runtime.log(`Retention dropped partitions ${droppedPartitions.join(', ')}`);
      }
    },
  );
}

// The process-wide state the route handlers share with the server that booted them. It lives on
// globalThis because Next bundles route code separately from the server's own modules.
import type { Database, DatabaseHandle } from '../db/client';
import { authenticateKey } from '../db/projects';
import { Admission } from '../ingest/admission';
import { Deriver, settleRuns } from '../ingest/derive-queue';
import type { DeriveContext } from '../ingest/derive-runs';
import type { OtlpEndpointDeps } from '../ingest/otlp-endpoint';
import { AppError } from '../lib/app-error';
import type { LoopSettings } from '../lib/settings';
import type { PriceTable } from '../trajectory/pricing';
import type { ServerConfig } from './config';

export interface Runtime {
  config: ServerConfig;
  status: 'starting' | 'ready' | 'stopping';
  handle: DatabaseHandle | null;
  lastError: string | null;
  prices: PriceTable;
  settings: LoopSettings;
  admission: Admission;
  deriver: Deriver;
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

export function deriveContext(runtime: Runtime): DeriveContext {
  return { prices: runtime.prices, settings: runtime.settings };
}

/** The deriver of this process, reading the runtime's current database and settings. */
export function createDeriver(runtime: () => Runtime): Deriver {
  return new Deriver(
    () => {
      const r = runtime();
      return r.status === 'ready' && r.handle ? r.handle.db : null;
    },
    () => deriveContext(runtime()),
    (error) => runtime().log(`deriving runs failed: ${(error as Error).message}`),
  );
}

/**
 * Derives what a read is about to read (the project's marked runs, or one run), so every answer
 * includes every span committed before it.
 */
export async function settle(projectId: string, runId?: string): Promise<void> {
  await settleRuns(requireDatabase(), deriveContext(getRuntime()), projectId, { runId });
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

export function otlpEndpointDeps(): OtlpEndpointDeps {
  const runtime = getRuntime();
  return {
    database: requireDatabase,
    authenticate: (key) => authenticateKey(requireDatabase(), key),
    afterCommit: () => runtime.deriver.kick(),
    overloaded: () =>
      runtime.deriver.backlog > runtime.config.deriveBacklog
        ? `${runtime.deriver.backlog} runs wait to be derived`
        : null,
    admission: runtime.admission,
    body: {
      maxBytes: runtime.config.maxBodyBytes,
      timeoutMs: runtime.config.bodyTimeoutMs,
      minBytesPerSecond: runtime.config.bodyMinBytesPerSecond,
    },
    log: runtime.log,
  };
}

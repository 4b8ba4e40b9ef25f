// The spool's workers for this server. On Postgres they write through a pool of their own (one
// connection per worker), so the door's inserts and the reads never wait for a pool slot behind
// an expansion; on PGlite (one connection) there is one worker, one request per transaction, so
// the door's insert is never queued behind more than one request's spans.
import { openDatabase } from '../db/client';
import type { DatabaseHandle } from '../db/client';
import { SpoolWorkers } from '../ingest/spool-worker';
import { deriveHeldBack } from './runtime';
import type { Runtime } from './runtime';

export interface RunningSpoolWorkers {
  workers: SpoolWorkers;
  stop(): Promise<void>;
}

export async function startSpoolWorkers(
  runtime: Runtime,
  handle: DatabaseHandle,
): Promise<RunningSpoolWorkers> {
  const count = handle.kind === 'pglite' ? 1 : runtime.config.spoolWorkers;
  const own =
    handle.kind === 'postgres' && handle.url
      ? await openDatabase({ databaseUrl: handle.url, maxConnections: count })
      : null;
  const db = (own ?? handle).db;
  const workers = new SpoolWorkers({
    db: () => (runtime.status === 'ready' ? db : null),
    spool: runtime.spool,
    workers: count,
    batch: handle.kind === 'pglite' ? 1 : 4,
    heldBack: () => deriveHeldBack(runtime),
    onStored: () => runtime.deriver.kick(),
    onError: runtime.log,
  });
  runtime.spool.whenPut((projectId) => workers.kick(projectId));
  workers.start();
  return {
    workers,
    stop: async () => {
      await workers.stop();
      await own?.close();
    },
  };
}

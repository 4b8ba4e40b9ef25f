// Moves requests held on disk while the database could not answer (ingest/hold.ts) into the
// spool once it answers again, oldest first, each removed from disk only after the spool has it.
import { describeError } from '../db/errors';
import { keyStoodAt } from '../db/projects';
import type { DiskHold, HeldRequest } from '../ingest/hold';
import type { Database } from '../db/client';
import type { IngestSpool } from '../ingest/spool';

/** What the mover needs of the server: the database while it is ready, the spool, the log. */
export interface HoldMoverDeps {
  database(): Database | null;
  spool: Pick<IngestSpool, 'put'>;
  log(message: string): void;
}

const PASS_MS = 500;
const BATCH = 32;

export interface HoldMover {
  /** One pass now (tests); resolves with the requests moved. */
  pass(): Promise<number>;
  stop(): Promise<void>;
}

export function startHoldMover(runtime: HoldMoverDeps, hold: DiskHold): HoldMover {
  let stopped = false;
  let running: Promise<number> | null = null;
  let reported = false;
  const pass = () => (running ??= movePass(runtime, hold).finally(() => (running = null)));
  const timer = setInterval(() => {
    if (stopped || hold.held.requests === 0 || runtime.database() === null) return;
    void pass().then(
      (moved) => {
        if (moved > 0)
          runtime.log(`${moved} request(s) held while the database was away are spooled`);
        reported = false;
      },
      (error: unknown) => {
        if (reported) return;
        reported = true;
        runtime.log(`moving held requests waits: ${describeError(error)}`);
      },
    );
  }, PASS_MS);
  timer.unref();
  return {
    pass,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => 0);
    },
  };
}

async function movePass(runtime: HoldMoverDeps, hold: DiskHold): Promise<number> {
  let moved = 0;
  for (;;) {
    const batch = await hold.oldest(BATCH);
    if (batch.length === 0) return moved;
    for (const request of batch) {
      const db = runtime.database();
      if (!db) return moved;
      // Throws (and the pass ends, to be tried again) while the database is away again or the
      // spool is full.
      const stood = await keyStoodAt(db, request.keyId, request.receivedMs);
      if (stood === 'stood') {
        await runtime.spool.put(request.projectId, request.entry);
        await hold.remove(request);
        moved += 1;
      } else {
        await setAside(hold, request, stood, runtime);
      }
    }
  }
}

/** A request whose key was revoked before it came, or is another database's: kept, not stored. */
async function setAside(
  hold: DiskHold,
  request: HeldRequest,
  why: 'revoked' | 'unknown',
  runtime: HoldMoverDeps,
): Promise<void> {
  const folder = await hold.setAside(request, why === 'revoked' ? 'revoked-key' : 'unknown-key');
  runtime.log(
    `a held request of key ${request.keyId} is set aside in ${folder}: ${why === 'revoked' ? 'the key was revoked before it came' : 'this database has no such key'}`,
  );
}

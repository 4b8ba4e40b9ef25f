// Derivation after commit: ingest marks the runs a request touched; the deriver derives them in
// batches (a run streaming many requests is derived once per batch, not once per request), and
// a read first derives what it is about to read, so every answer includes every committed span.
import type { Database } from '../db/client';
import { claimDirtyRuns, claimProjectRuns, countDirtyRuns } from '../db/write/dirty-runs';
import { deriveRuns } from './derive-runs';
import type { DeriveContext } from './derive-runs';

/** Derives up to `limit` marked runs of any project; returns how many it derived. */
export async function deriveMarkedRuns(
  db: Database,
  context: DeriveContext,
  limit = 200,
): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await claimDirtyRuns(tx, limit);
    const byProject = new Map<string, string[]>();
    for (const { projectId, runId } of claimed)
      byProject.set(projectId, [...(byProject.get(projectId) ?? []), runId]);
    for (const [projectId, runIds] of byProject) await deriveRuns(tx, projectId, runIds, context);
    return claimed.length;
  });
}

/**
 * Brings a project's runs (or one run) up to date before a read. Bounded: past `limit` marked
 * runs the rest is left to the deriver, and the read sees them as of their last derivation.
 */
export async function settleRuns(
  db: Database,
  context: DeriveContext,
  projectId: string,
  options: { runId?: string; limit?: number } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    const runIds = await claimProjectRuns(tx, projectId, {
      runId: options.runId,
      limit: options.limit ?? 500,
    });
    if (runIds.length > 0) await deriveRuns(tx, projectId, runIds, context);
  });
}

/**
 * The background deriver: runs whenever kicked (after each ingest commit) and every `pollMs`
 * (marks left by other processes or by a crash), until the queue is empty.
 */
export class Deriver {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  /** Marked runs waiting, as last counted. */
  backlog = 0;

  constructor(
    private readonly db: () => Database | null,
    private readonly context: () => DeriveContext,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(pollMs = 1000): void {
    this.timer = setInterval(() => this.kick(), pollMs);
    this.timer.unref();
    this.kick();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again && this.timer) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves when the current pass (if any) is over. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    const db = this.db();
    if (!db) return;
    try {
      do {
        this.backlog = await countDirtyRuns(db);
      } while (this.backlog > 0 && (await deriveMarkedRuns(db, this.context())) > 0);
    } catch (error) {
      this.onError(error);
    }
  }
}

// Derivation after commit: ingest marks the runs a request touched; the deriver derives them in
// batches (a run streaming many requests is derived once per batch, not once per request), and
// a read first settles what it is about to read (settle-runs.ts).
import type { Database } from '../db/client';
import { withConflictRetry } from '../db/errors';
import { countDirtyRuns } from '../db/write/dirty-runs';
import { deriveMarkedRuns } from './derive-marked-runs';
import type { DeriveContext } from './derive-runs';
import { RepeatingPass } from '../lib/repeating-pass';
import { DeriveBatchSize } from './derive-batch-size';

/**
 * The background deriver: runs whenever kicked (after each ingest commit) and every `pollMs`
 * (marks left by other processes, by a crash, or quarantined runs whose backoff is over), until
 * nothing due is left.
 */
export class Deriver extends RepeatingPass {
  /** Due marked runs waiting per project, as last counted. */
  private waiting = new Map<string, number>();
  constructor(
    private readonly db: () => Database | null,
    private readonly context: () => DeriveContext,
    private readonly onError: (error: unknown) => void,
    /** Whether batches are sized to a duration (derive-batch-size.ts), else the most runs. */
    private readonly sizesBatches: () => boolean,
    private readonly batch = new DeriveBatchSize(),
  ) {
    super();
  }

  /** Marked runs waiting, across projects. */
  get backlog(): number {
    let total = 0;
    for (const n of this.waiting.values()) total += n;
    return total;
  }

  /** Marked runs of one project waiting. */
  backlogOf(projectId: string): number {
    return this.waiting.get(projectId) ?? 0;
  }

  /** Projects with more than `limit` marked runs waiting. */
  projectsOver(limit: number): string[] {
    return [...this.waiting].filter(([, n]) => n > limit).map(([projectId]) => projectId);
  }

  /** Counts the due marks again (the health check and ingest's backlog check read the count). */
  async recount(): Promise<void> {
    const db = this.db();
    if (db) this.waiting = await countDirtyRuns(db);
  }

  protected async pass(): Promise<void> {
    const db = this.db();
    if (!db) return;
    try {
      do {
        this.waiting = await countDirtyRuns(db);
      } while (this.backlog > 0 && (await this.deriveBatch(db)) > 0);
    } catch (error) {
      this.onError(error);
    }
  }

  private async deriveBatch(db: Database): Promise<number> {
    const derive = (limit: number) =>
      withConflictRetry(() => deriveMarkedRuns(db, this.context(), limit));
    if (!this.sizesBatches()) return derive(DeriveBatchSize.MAX);
    const started = performance.now();
    const derived = await derive(this.batch.next(this.backlog));
    this.batch.took(derived, performance.now() - started);
    return derived;
  }
}

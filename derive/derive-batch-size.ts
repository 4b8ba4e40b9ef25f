// How many marked runs one derivation transaction takes. While it lasts, its runs' marks are
// held: a spool worker storing more spans of one of them, and a read settling one, wait for it to
// commit. Traced under ingest at the sustainable rate (BENCHMARKS.md, "Derivation batches sized
// to a duration"), a batch of 200 runs held them for a second and more, and a read of one run
// waited most of that. Batches always sized to 150 ms halved the wait but lowered the burst's
// probed sustainable rate by a quarter (each transaction claims, counts and queries once for all
// its runs). So the batch is sized to a duration that grows with the backlog: 150 ms while the
// deriver keeps up, up to 200 runs once far behind, when reads are behind anyway and throughput
// is what brings them back. On Postgres only: on PGlite, whose one connection runs one
// transaction at a time, the same sizing made time to visible at the sustainable rate six times
// longer (p99 5.6 s against 0.93 s with batches of 200, one run each), its shorter batches' overhead taking
// the single engine's time.

/** Sizes each derivation batch from the time runs took so far and the backlog now. */
export class DeriveBatchSize {
  static readonly TARGET_MS = 150;
  /** The backlog at which the target duration starts to grow, in proportion. */
  static readonly KEEPING_UP = 400;
  static readonly MIN = 8;
  static readonly MAX = 200;
  private perRunMs: number | null = null;

  /** How many runs to take now, with `backlog` marked runs waiting. */
  next(backlog: number): number {
    if (this.perRunMs === null) return DeriveBatchSize.MAX;
    const target = DeriveBatchSize.TARGET_MS * Math.max(1, backlog / DeriveBatchSize.KEEPING_UP);
    const fitting = Math.floor(target / this.perRunMs);
    return Math.min(DeriveBatchSize.MAX, Math.max(DeriveBatchSize.MIN, fitting));
  }

  /** A batch's outcome: `runs` derived in `ms`. */
  took(runs: number, ms: number): void {
    if (runs === 0 || !(ms > 0)) return;
    const perRun = ms / runs;
    // Smoothed: one slow commit (a checkpoint, a long run) does not swing the next batch.
    this.perRunMs = this.perRunMs === null ? perRun : 0.7 * this.perRunMs + 0.3 * perRun;
  }
}

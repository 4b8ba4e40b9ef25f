// What deriving a long run made (its span tree and steps, its step findings, its step rows), kept
// so that deriving it again works only on the spans added since (assemble-run.ts, derive-run.ts
// and run-rows.ts take a `previous`). Memos of pure functions, each checked against its input
// every time: whatever the database holds, the result is the one deriving every span would give.
// Bounded by spans, least recently used out first.
import type { DerivationMemo } from '../trajectory/derive-run';
import type { Assembly } from './assemble-run';
import type { RowsMemo } from './run-rows';

export interface RunMemo {
  assembly: Assembly;
  derivation: DerivationMemo;
  rows: RowsMemo;
}

/** Runs with fewer spans are assembled whole: it is cheap, and they would crowd the memo. */
export const MIN_REMEMBERED_SPANS = 1000;
const REMEMBERED_SPANS = 60_000;

export class RunMemos {
  // Insertion order is recency.
  private readonly runs = new Map<string, RunMemo>();
  private held = 0;

  constructor(private readonly capacity = REMEMBERED_SPANS) {}

  /**
   * The run's memo, which is no longer held: going on from it changes it, and a derivation that
   * fails halfway must not leave it to be taken again.
   */
  take(projectId: string, runId: string): RunMemo | undefined {
    const key = runKey(projectId, runId);
    const memo = this.runs.get(key);
    if (!memo) return undefined;
    this.runs.delete(key);
    this.held -= memo.assembly.spans.size;
    return memo;
  }

  keep(projectId: string, runId: string, memo: RunMemo): void {
    const size = memo.assembly.spans.size;
    if (size < MIN_REMEMBERED_SPANS || size > this.capacity) return;
    const key = runKey(projectId, runId);
    const before = this.runs.get(key);
    if (before) {
      this.runs.delete(key);
      this.held -= before.assembly.spans.size;
    }
    for (const [oldest, of] of this.runs) {
      if (this.held + size <= this.capacity) break;
      this.runs.delete(oldest);
      this.held -= of.assembly.spans.size;
    }
    this.runs.set(key, memo);
    this.held += size;
  }

  get spans(): number {
    return this.held;
  }
}

const runKey = (projectId: string, runId: string) => `${projectId}\u0000${runId}`;

// What deriving a long run made (its span tree and steps, its step findings, its step rows), kept
// so that deriving it again works only on the spans added since (assemble-run.ts, derive-run.ts
// and run-rows.ts take a `previous`). Memos of pure functions, each checked against its input
// every time: whatever the database holds, the result is the one deriving every span would give.
// Bounded by spans, least recently used out first.
import { SizedLru } from '../lib/sized-lru';
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
  private readonly runs = new SizedLru<RunMemo>(
    REMEMBERED_SPANS,
    MIN_REMEMBERED_SPANS,
    (memo) => memo.assembly.spans.size,
  );

  /**
   * The run's memo, which is no longer held: going on from it changes it, and a derivation that
   * fails halfway must not leave it to be taken again.
   */
  take(projectId: string, runId: string): RunMemo | undefined {
    return this.runs.take(runKey(projectId, runId));
  }

  keep(projectId: string, runId: string, memo: RunMemo): void {
    this.runs.keep(runKey(projectId, runId), memo);
  }
}

const runKey = (projectId: string, runId: string) => `${projectId}\u0000${runId}`;

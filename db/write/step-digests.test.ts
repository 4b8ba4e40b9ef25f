// The digest memo gives every row the digest hashing it would give, whichever rows it holds:
// a row equal to the one held keeps its digest unhashed, any field changed (nested ones too)
// is hashed again.
import { describe, expect, it } from 'vitest';
import { fingerprintOf, MIN_REMEMBERED_STEPS, StepDigestMemo } from './step-digests';
import type { StepRow } from './save-steps';
import { testStepRow } from './test-step-row';

const run = (n: number, change: (k: number) => Partial<StepRow> = () => ({})) =>
  Array.from({ length: n }, (_, k) => testStepRow('long', k + 1, change(k + 1)));
const hashed = (rows: readonly StepRow[]) => rows.map((r) => fingerprintOf(JSON.stringify(r)));

describe('the step digest memo', () => {
  it('gives each row the digest of its serialisation, and hashes only the rows that changed', () => {
    const memo = new StepDigestMemo();
    const first = run(MIN_REMEMBERED_STEPS);
    expect(memo.digest('p', 'long', first).map((d) => d.fingerprint)).toEqual(hashed(first));
    expect(memo.steps).toBe(MIN_REMEMBERED_STEPS);

    const changes: Record<number, Partial<StepRow>> = {
      3: { signals: ['repeat'] },
      7: { verdictFields: { tests: true } },
      9: { progress: null },
      11: { costUsd: 0.02 },
    };
    const second = [
      ...run(MIN_REMEMBERED_STEPS, (k) => changes[k] ?? {}),
      testStepRow('long', 501),
    ];
    const digested = memo.digest('p', 'long', second);
    expect(digested.map((d) => d.fingerprint)).toEqual(hashed(second));
    const rehashed = digested.filter((d) => d.json !== null).map((d) => d.row.ordinal);
    expect(rehashed).toEqual([3, 7, 9, 11, 501]);

    // A nested value changed again in place of another: still hashed again.
    const third = run(MIN_REMEMBERED_STEPS + 1, (k) =>
      k === 7 ? { verdictFields: { tests: false } } : (changes[k] ?? {}),
    );
    expect(memo.digest('p', 'long', third).map((d) => d.fingerprint)).toEqual(hashed(third));
  });

  it('remembers no short run, and no run in another project under the same id', () => {
    const memo = new StepDigestMemo();
    memo.digest('p', 'short', run(MIN_REMEMBERED_STEPS - 1));
    expect(memo.steps).toBe(0);
    memo.digest('p', 'long', run(MIN_REMEMBERED_STEPS));
    const other = memo.digest('q', 'long', run(MIN_REMEMBERED_STEPS));
    expect(other.every((d) => d.json !== null)).toBe(true);
  });

  it('lets the least recently digested run go past its capacity', () => {
    const memo = new StepDigestMemo(2 * MIN_REMEMBERED_STEPS);
    memo.digest('p', 'a', run(MIN_REMEMBERED_STEPS));
    memo.digest('p', 'b', run(MIN_REMEMBERED_STEPS));
    memo.digest('p', 'c', run(MIN_REMEMBERED_STEPS));
    expect(memo.steps).toBe(2 * MIN_REMEMBERED_STEPS);
    expect(memo.digest('p', 'a', run(MIN_REMEMBERED_STEPS)).every((d) => d.json !== null)).toBe(
      true,
    );
    expect(memo.digest('p', 'c', run(MIN_REMEMBERED_STEPS)).every((d) => d.json === null)).toBe(
      true,
    );
  });
});

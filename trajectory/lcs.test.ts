import { describe, expect, it } from 'vitest';
import { longestCommonSubsequence } from './lcs';

/** The textbook O(n·m) table, for the length only. */
function lcsLength(x: number[], y: number[]): number {
  const table = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      table[i]![j] =
        x[i - 1] === y[j - 1]
          ? table[i - 1]![j - 1]! + 1
          : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
    }
  }
  return table[x.length]![y.length]!;
}

function expectCommonSubsequence(x: number[], y: number[], pairs: [number, number][]): void {
  for (let k = 0; k < pairs.length; k++) {
    const [i, j] = pairs[k]!;
    expect(x[i]).toBe(y[j]);
    if (k > 0) {
      expect(i).toBeGreaterThan(pairs[k - 1]![0]);
      expect(j).toBeGreaterThan(pairs[k - 1]![1]);
    }
  }
}

/** A seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('longestCommonSubsequence', () => {
  it('pairs the textbook example as long as the table says', () => {
    const x = [1, 2, 3, 2, 4, 1, 2];
    const y = [2, 4, 3, 1, 2, 1];
    const pairs = longestCommonSubsequence(x, y);
    expect(pairs).toHaveLength(4);
    expectCommonSubsequence(x, y, pairs);
  });

  it('takes the earliest pairs where several are as long', () => {
    expect(longestCommonSubsequence([7, 7, 7], [7])).toEqual([[0, 0]]);
    expect(longestCommonSubsequence([5, 7, 7], [7, 9])).toEqual([[1, 0]]);
    expect(longestCommonSubsequence([], [1, 2])).toEqual([]);
    expect(longestCommonSubsequence([1, 2], [3, 4])).toEqual([]);
  });

  it('matches the table on random sequences across word edges, with and without the split', () => {
    const next = random(16);
    for (let round = 0; round < 150; round++) {
      const alphabet = 1 + Math.floor(next() * 6);
      const x = Array.from({ length: Math.floor(next() * 90) }, () =>
        Math.floor(next() * alphabet),
      );
      const y = Array.from({ length: Math.floor(next() * 90) }, () =>
        Math.floor(next() * alphabet),
      );
      const expected = lcsLength(x, y);
      for (const budget of [undefined, 8]) {
        const pairs = longestCommonSubsequence(x, y, budget);
        expectCommonSubsequence(x, y, pairs);
        expect(pairs.length, `round ${round}, budget ${budget}`).toBe(expected);
      }
    }
  });

  it('aligns two different 10,000-long sequences in well under a second', () => {
    const next = random(10_000);
    const x = Array.from({ length: 10_000 }, () => Math.floor(next() * 40));
    const y = Array.from({ length: 10_000 }, () => Math.floor(next() * 40));
    const started = performance.now();
    const pairs = longestCommonSubsequence(x, y);
    const elapsed = performance.now() - started;
    expectCommonSubsequence(x, y, pairs);
    // Random sequences over 40 symbols share about a quarter of their length (Chvátal–Sankoff).
    expect(pairs.length).toBeGreaterThan(2000);
    expect(elapsed).toBeLessThan(2000);
    // Split by Hirschberg's halving instead of kept whole: as long.
    expect(longestCommonSubsequence(x, y, 20_000)).toHaveLength(pairs.length);
  });
});

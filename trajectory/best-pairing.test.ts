import { describe, expect, it } from 'vitest';
import { bestPairing } from './best-pairing';

/** Every pairing's (pairs, equal outcomes), the best by brute force over the recursion. */
function bestScore(ax: number[], ox: number[], ay: number[], oy: number[]): [number, number] {
  const memo = new Map<string, [number, number]>();
  const better = (p: [number, number], q: [number, number]) =>
    p[0] > q[0] || (p[0] === q[0] && p[1] > q[1]) ? p : q;
  const go = (i: number, j: number): [number, number] => {
    if (i === ax.length || j === ay.length) return [0, 0];
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known) return known;
    let best = better(go(i + 1, j), go(i, j + 1));
    if (ax[i] === ay[j]) {
      const rest = go(i + 1, j + 1);
      best = better([rest[0] + 1, rest[1] + (ox[i] === oy[j] ? 1 : 0)], best);
    }
    memo.set(key, best);
    return best;
  };
  return go(0, 0);
}

describe('bestPairing', () => {
  it('reaches the most pairs, then the most equal outcomes, on random sequences', () => {
    let seed = 3;
    const next = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % k;
    };
    for (let round = 0; round < 200; round++) {
      const n = next(14);
      const m = next(14);
      const ax = Array.from({ length: n }, () => next(3));
      const ay = Array.from({ length: m }, () => next(3));
      const ox = Array.from({ length: n }, () => next(2));
      const oy = Array.from({ length: m }, () => next(2));
      const pairs = bestPairing(ax, ox, ay, oy);
      let same = 0;
      pairs.forEach(([i, j], k) => {
        expect(ax[i]).toBe(ay[j]);
        if (ox[i] === oy[j]) same++;
        if (k > 0) {
          expect(i).toBeGreaterThan(pairs[k - 1]![0]);
          expect(j).toBeGreaterThan(pairs[k - 1]![1]);
        }
      });
      expect([pairs.length, same], `round ${round}`).toEqual(bestScore(ax, ox, ay, oy));
    }
  });
});

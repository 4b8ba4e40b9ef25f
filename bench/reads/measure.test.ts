// The turns are what make a ratio of two reads fair: each work gets its own samples, taken in
// alternating order, never one work's calls all before the other's.
import { describe, expect, it } from 'vitest';
import { percentile, timeInTurns } from './measure';

describe('timeInTurns', () => {
  it('calls the works in turns, the first of each turn alternating, after the warm-up', async () => {
    const calls: string[] = [];
    const work = (name: string) => async () => void calls.push(name);
    const timings = await timeInTurns([work('a'), work('b')], { warmup: 1, iterations: 4 });
    expect(calls).toEqual(['a', 'b', 'a', 'b', 'b', 'a', 'a', 'b', 'b', 'a']);
    expect(timings.map((t) => t.samples.length)).toEqual([4, 4]);
  });

  it("keeps each work's times apart", async () => {
    const pause = (ms: number) => () => new Promise((resolve) => setTimeout(resolve, ms));
    const [fast, slow] = await timeInTurns([pause(1), pause(30)], { warmup: 0, iterations: 3 });
    expect(slow!.p50).toBeGreaterThan(fast!.p50 + 20);
    expect(fast!.p50).toBe(
      percentile(
        [...fast!.samples].sort((a, b) => a - b),
        50,
      ),
    );
  });
});

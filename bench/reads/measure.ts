// Timing helpers: warm-up calls first, then wall-clock samples of each call, one at a time.

export interface Timing {
  samples: number[];
  p50: number;
  p95: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export async function time(
  work: () => Promise<unknown>,
  iterations: { warmup: number; iterations: number },
): Promise<Timing> {
  const [timing] = await timeInTurns([work], iterations);
  return timing!;
}

/**
 * Times several works call by call in turns (a, b, a, b…, the first of each turn alternating),
 * so that whatever the machine does meanwhile (writeback, a frequency change, a neighbour)
 * falls on each alike and their ratio holds.
 */
export async function timeInTurns(
  works: readonly (() => Promise<unknown>)[],
  { warmup, iterations }: { warmup: number; iterations: number },
): Promise<Timing[]> {
  for (let k = 0; k < warmup; k++) for (const work of works) await work();
  const samples: number[][] = works.map(() => []);
  for (let k = 0; k < iterations; k++) {
    const order = works.map((_, i) => i);
    if (k % 2 === 1) order.reverse();
    for (const i of order) {
      const t0 = performance.now();
      await works[i]!();
      samples[i]!.push(performance.now() - t0);
    }
  }
  return samples.map((taken) => {
    const sorted = [...taken].sort((a, b) => a - b);
    return { samples: taken, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
  });
}

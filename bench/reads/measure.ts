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
  { warmup, iterations }: { warmup: number; iterations: number },
): Promise<Timing> {
  for (let k = 0; k < warmup; k++) await work();
  const samples: number[] = [];
  for (let k = 0; k < iterations; k++) {
    const t0 = performance.now();
    await work();
    samples.push(performance.now() - t0);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { samples, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

// Seeded randomness and a virtual clock: a sample run is the same run every time it is replayed,
// down to its timestamps, which is what makes loading the samples twice add nothing.
import { createHash } from 'node:crypto';

export class Random {
  private state: number;

  constructor(seed: string) {
    this.state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  }

  /** mulberry32: small, fast and plenty for scripted behaviour. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }
}

/** Time that passes only when the sample says so: model latency, tool latency, waiting. */
export class VirtualClock {
  constructor(private ms: number) {}

  readonly now = (): number => this.ms;

  advance(ms: number): void {
    this.ms += Math.max(0, Math.round(ms));
  }
}

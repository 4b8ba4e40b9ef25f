// Per-process memos of long runs (db/write/run-span-cache.ts, derive/run-memo.ts): entries of a
// size (spans), bounded by their total, least recently used out first. An entry taken is no
// longer held: the caller changes it and keeps it again only once it is whole.

export class SizedLru<V> {
  // Insertion order is recency.
  private readonly entries = new Map<string, V>();
  private total = 0;

  /** Entries smaller than `minSize` are not worth holding. */
  constructor(
    private readonly capacity: number,
    private readonly minSize: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  take(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.total -= this.sizeOf(value);
    return value;
  }

  keep(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size < this.minSize || size > this.capacity) return;
    this.take(key);
    for (const [oldest, of] of this.entries) {
      if (this.total + size <= this.capacity) break;
      this.entries.delete(oldest);
      this.total -= this.sizeOf(of);
    }
    this.entries.set(key, value);
    this.total += size;
  }

  /** The sizes held, summed. */
  get size(): number {
    return this.total;
  }
}

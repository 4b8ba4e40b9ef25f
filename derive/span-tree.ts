// The spans of one run as a forest, and spend rolled up through it. Spans may arrive without
// their parents; such a span is top-level until its parent comes.
import type { PriceTable } from '../trajectory/pricing';
import type { SpanFacts } from '../trajectory/span-facts';

export interface StoredSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startMs: number;
  endMs: number | null;
  statusCode: number;
  statusMessage: string;
  facts: SpanFacts;
  /** When it was stored (the last copy's receipt), where known. */
  receivedMs?: number;
}

export interface Spend {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
}

export const NO_SPEND: Spend = { costUsd: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0 };

/** a + b for counts that must stay exact integers: saturates instead of losing precision. */
function addCounts(a: number, b: number): number {
  const sum = a + b;
  return sum > Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : sum;
}

/** `into` += `b`, as `addSpend` sums. */
export function addSpendTo(into: Spend, b: Spend): void {
  into.costUsd += b.costUsd;
  into.inputTokens = addCounts(into.inputTokens, b.inputTokens);
  into.outputTokens = addCounts(into.outputTokens, b.outputTokens);
  into.cacheReadTokens = addCounts(into.cacheReadTokens, b.cacheReadTokens);
}

export function addSpend(a: Spend, b: Spend): Spend {
  const sum = { ...a };
  addSpendTo(sum, b);
  return sum;
}

export class SpanTree {
  private readonly sorted: StoredSpan[] = [];
  readonly topLevel: StoredSpan[] = [];
  /** By trace, then span id (a later copy of an id wins): lookups by the ids as stored. */
  private readonly byTrace = new Map<string, Map<string, StoredSpan>>();
  /** Parent ids that top-level spans name and no span has, by trace. */
  private readonly awaited = new Map<string, Set<string>>();
  /** A cycle of parent ids left spans that no top-level span reaches. */
  private cyclic = false;
  // Keyed by the span itself, not by its trace and span id: a run's thousands of spans are looked
  // up many times each, and a composed string key is built and hashed at every lookup.
  private readonly parent = new Map<StoredSpan, StoredSpan>();
  private readonly childrenOf = new Map<StoredSpan, StoredSpan[]>();
  /** Spend of each span's subtree. */
  private readonly spend = new Map<StoredSpan, Spend>();
  /** Spend per model, from the spans whose own tokens were counted. */
  readonly costByModel = new Map<string, number>();
  /** Models whose tokens count in the run's spend but have no price (and no explicit cost). */
  readonly unpricedModels = new Set<string>();
  private readonly subtreeUnpriced = new Map<StoredSpan, Set<string>>();

  constructor(
    spans: readonly StoredSpan[],
    private readonly prices: PriceTable,
  ) {
    this.add([...spans].sort(byStart));
  }

  /** In start order (then span id). */
  get spans(): readonly StoredSpan[] {
    return this.sorted;
  }

  /**
   * Adds spans as though the tree had been built with them, where that leaves every span held as
   * it was: each new span starts after the last one held, none has the id of a held span or of a
   * held span's missing parent, none is the child of a held span, no cycle of parent ids is held,
   * and the prices are the same. Then it returns the spans added and the top-level ones among
   * them, both in start order; otherwise null, and the tree is unchanged.
   */
  extend(
    spans: readonly StoredSpan[],
    prices: PriceTable,
  ): { added: StoredSpan[]; topLevel: StoredSpan[] } | null {
    if (prices !== this.prices || this.cyclic) return null;
    const added = [...spans].sort(byStart);
    const last = this.sorted[this.sorted.length - 1];
    const first = added[0];
    if (last && first && byStart(last, first) >= 0) return null;
    for (const span of added) {
      const ofTrace = this.byTrace.get(span.traceId);
      if (ofTrace?.has(span.spanId) || this.awaited.get(span.traceId)?.has(span.spanId)) {
        return null;
      }
      if (span.parentSpanId !== null && ofTrace?.has(span.parentSpanId)) return null;
    }
    return { added, topLevel: this.add(added) };
  }

  /** Links spans in start order whose parents are among them or absent; returns the top-level ones. */
  private add(batch: readonly StoredSpan[]): StoredSpan[] {
    for (const span of batch) {
      let ofTrace = this.byTrace.get(span.traceId);
      if (!ofTrace) this.byTrace.set(span.traceId, (ofTrace = new Map()));
      ofTrace.set(span.spanId, span);
    }
    const top: StoredSpan[] = [];
    for (const span of batch) {
      this.sorted.push(span);
      const parent =
        span.parentSpanId === null
          ? undefined
          : this.byTrace.get(span.traceId)?.get(span.parentSpanId);
      if (!parent) {
        this.topLevel.push(span);
        top.push(span);
        if (span.parentSpanId !== null) {
          let awaited = this.awaited.get(span.traceId);
          if (!awaited) this.awaited.set(span.traceId, (awaited = new Set()));
          awaited.add(span.parentSpanId);
        }
        continue;
      }
      this.parent.set(span, parent);
      const siblings = this.childrenOf.get(parent);
      if (siblings) siblings.push(span);
      else this.childrenOf.set(parent, [span]);
    }
    this.rollUpSpend(top, batch);
    for (const span of top) {
      for (const model of this.subtreeUnpriced.get(span) ?? []) this.unpricedModels.add(model);
    }
    return top;
  }

  parentOf(span: StoredSpan): StoredSpan | undefined {
    return this.parent.get(span);
  }

  children(span: StoredSpan): readonly StoredSpan[] {
    return this.childrenOf.get(span) ?? [];
  }

  subtreeSpend(span: StoredSpan): Spend {
    return this.spend.get(span) ?? NO_SPEND;
  }

  /** The spans above `span`, nearest first (a cycle of parent ids is walked once). */
  ancestors(span: StoredSpan): Set<StoredSpan> {
    const found = new Set<StoredSpan>();
    for (let up = this.parent.get(span); up && !found.has(up); up = this.parent.get(up)) {
      found.add(up);
    }
    return found;
  }

  /** Every span below `span`, in start order. */
  descendants(span: StoredSpan): StoredSpan[] {
    const children = this.children(span);
    if (children.length === 0) return [];
    const found: StoredSpan[] = [];
    const seen = new Set<StoredSpan>([span]);
    const stack = [...children];
    while (stack.length > 0) {
      const next = stack.pop();
      if (!next) break;
      // Parent ids can form a cycle: each span is visited once.
      if (seen.has(next)) continue;
      seen.add(next);
      found.push(next);
      for (const child of this.children(next)) stack.push(child);
    }
    return found.sort((a, b) => a.startMs - b.startMs);
  }

  /**
   * The spans that have an ancestor in `set`, in one walk down from the top-level spans, or from
   * `from`, some of them (linear however deep the tree is). Spans whose parent ids form a cycle are unreachable from the top
   * and count as inside nothing.
   */
  insideAny(
    set: ReadonlySet<StoredSpan>,
    from: readonly StoredSpan[] = this.topLevel,
  ): Set<StoredSpan> {
    const inside = new Set<StoredSpan>();
    // Spans to visit, and beside each whether a span of `set` is above it.
    const stack = [...from];
    const above = stack.map(() => false);
    while (stack.length > 0) {
      const span = stack.pop() as StoredSpan;
      const under = above.pop() as boolean;
      if (under) inside.add(span);
      const below = under || set.has(span);
      for (const child of this.children(span)) {
        stack.push(child);
        above.push(below);
      }
    }
    return inside;
  }

  /**
   * Tokens count once: a span's own tokens only when nothing below it carries spend (frameworks
   * put run totals on the root as well as on each LLM call). An explicit `loop.cost_usd` is the
   * cost of its whole subtree.
   */
  private rollUpSpend(top: readonly StoredSpan[], batch: readonly StoredSpan[]): void {
    const visited = new Set<StoredSpan>();
    // Each subtree walked down once into a list, then summed up from its end: a span comes after
    // its parent in the list, so its children are summed before it. No recursion, so a deep chain
    // of spans cannot overflow the stack. Top-level spans first; then any span a cycle of parent
    // ids left unreached.
    const walk = (root: StoredSpan) => {
      if (visited.has(root)) return;
      visited.add(root);
      const order: StoredSpan[] = [];
      const stack = [root];
      for (let span = stack.pop(); span; span = stack.pop()) {
        order.push(span);
        for (const child of this.children(span)) {
          if (visited.has(child)) continue;
          visited.add(child);
          stack.push(child);
        }
      }
      for (let k = order.length - 1; k >= 0; k--) {
        const span = order[k] as StoredSpan;
        this.spend.set(span, this.ownSubtreeSpend(span));
      }
    };
    for (const root of top) walk(root);
    for (const span of batch) {
      if (visited.has(span)) continue;
      this.cyclic = true;
      walk(span);
    }
  }

  private ownSubtreeSpend(span: StoredSpan): Spend {
    const children = this.children(span);
    const kidsHaveSpend = children.some((child) => {
      const s = this.spend.get(child);
      return s !== undefined && (s.inputTokens + s.outputTokens > 0 || s.costUsd > 0);
    });
    let unpriced: Set<string> | null = null;
    let total: Spend;
    if (kidsHaveSpend) {
      total = { ...NO_SPEND };
      for (const child of children) {
        const s = this.spend.get(child);
        if (s !== undefined) addSpendTo(total, s);
        for (const model of this.subtreeUnpriced.get(child) ?? [])
          (unpriced ??= new Set()).add(model);
      }
    } else {
      const own = this.ownSpend(span);
      total = own.spend;
      if (own.unpricedModel !== null) unpriced = new Set([own.unpricedModel]);
    }
    const explicit = span.facts.costUsd;
    // An explicit cost prices the whole subtree: nothing below it is missing a price any more.
    if (explicit !== undefined) {
      total = { ...total, costUsd: explicit };
      unpriced = null;
    }
    if (unpriced !== null && unpriced.size > 0) this.subtreeUnpriced.set(span, unpriced);
    return total;
  }

  private ownSpend(span: StoredSpan): { spend: Spend; unpricedModel: string | null } {
    const f = span.facts;
    const tokens = {
      inputTokens: f.inputTokens ?? 0,
      outputTokens: f.outputTokens ?? 0,
      cacheReadTokens: f.cacheReadTokens ?? 0,
    };
    if (tokens.inputTokens + tokens.outputTokens === 0)
      return { spend: { ...NO_SPEND }, unpricedModel: null };
    const model = f.model ?? null;
    const priced = model === null ? null : this.prices.cost(model, tokens);
    const costUsd = f.costUsd ?? priced ?? 0;
    if (model !== null) this.costByModel.set(model, (this.costByModel.get(model) ?? 0) + costUsd);
    const unpricedModel =
      priced === null && f.costUsd === undefined ? (model ?? '(no model named)') : null;
    return { spend: { costUsd, ...tokens }, unpricedModel };
  }
}

/** By start, then span id (code points: ids are hex, and a locale compare is slow). */
function byStart(a: StoredSpan, b: StoredSpan): number {
  return a.startMs - b.startMs || (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0);
}

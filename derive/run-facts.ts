// A run's root and its run-level attributes (docs/conventions.md "Runs and steps"): the span that
// carries `loop.exit.reason` (the latest ending), else the first parentless agent span, else the
// first parentless span; and each fact's first value with the root first, then other spans without
// a parent, then other top-level spans, then every span, each in start order. Built once from a
// tree, and carried on when spans are added to it (SpanTree.extend).
import type { SpanFacts } from '../trajectory/span-facts';
import { latestEnding } from './run-exit';
import type { SpanTree, StoredSpan } from './span-tree';

/** Where a fact's value came from: 1 the root, 2 parentless, 3 top-level, 4 any span. */
type Rank = 1 | 2 | 3 | 4;

export class RunFacts {
  root: StoredSpan | null = null;
  private readonly withReason: StoredSpan[] = [];
  private firstParentless: StoredSpan | null = null;
  private firstParentlessAgent: StoredSpan | null = null;
  private found = new Map<string, { value: unknown; rank: Rank }>();

  constructor(tree: SpanTree) {
    this.noteRootCandidates(tree.spans);
    this.root = this.chooseRoot();
    this.gather(tree.spans, tree.topLevel, true);
  }

  get<K extends keyof SpanFacts>(k: K): SpanFacts[K] | undefined {
    return this.found.get(k)?.value as SpanFacts[K] | undefined;
  }

  /**
   * The facts of the tree after `added` (its `topLevel` ones among them) joined it at the end of
   * its start order: gathered again only if the root changed.
   */
  extend(tree: SpanTree, added: readonly StoredSpan[], topLevel: readonly StoredSpan[]): void {
    this.noteRootCandidates(added);
    const root = this.chooseRoot();
    if (root !== this.root) {
      this.root = root;
      this.found = new Map();
      this.gather(tree.spans, tree.topLevel, true);
      return;
    }
    this.gather(added, topLevel, false);
  }

  private noteRootCandidates(spans: readonly StoredSpan[]): void {
    for (const s of spans) {
      if (s.facts.exitReason !== undefined) this.withReason.push(s);
      if (s.parentSpanId !== null) continue;
      this.firstParentless ??= s;
      if (s.facts.role === 'agent') this.firstParentlessAgent ??= s;
    }
  }

  private chooseRoot(): StoredSpan | null {
    if (this.withReason.length > 0) return latestEnding(this.withReason);
    return this.firstParentlessAgent ?? this.firstParentless;
  }

  /**
   * Takes the facts of `spans` (in start order, `topLevel` the top-level ones among them; the
   * root's first, when `withRoot`), each where no value of a higher rank, or of its rank from an
   * earlier span, is held.
   */
  private gather(
    spans: readonly StoredSpan[],
    topLevel: readonly StoredSpan[],
    withRoot: boolean,
  ): void {
    const { root } = this;
    const take = (s: StoredSpan, rank: Rank) => {
      for (const k in s.facts) {
        const value = s.facts[k as keyof SpanFacts];
        if (value === undefined) continue;
        const held = this.found.get(k);
        if (!held || held.rank > rank) this.found.set(k, { value, rank });
      }
    };
    if (root && withRoot) take(root, 1);
    for (const s of spans) if (s !== root && s.parentSpanId === null) take(s, 2);
    for (const s of topLevel) if (s !== root && s.parentSpanId !== null) take(s, 3);
    for (const s of spans) take(s, 4);
  }
}

// Dollars from tokens, by a price table that is configuration (rates per million tokens, each
// with the date it was checked), never constants in code.

export interface ModelPrice {
  model: string;
  inputPerMTok: number;
  outputPerMTok: number;
  cacheReadPerMTok: number | null;
  checkedAt: string;
  source?: string | null;
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
}

export class PriceTable {
  private readonly exact = new Map<string, ModelPrice>();
  private readonly byLength: ModelPrice[];

  constructor(prices: readonly ModelPrice[]) {
    for (const price of prices) this.exact.set(price.model.toLowerCase(), price);
    this.byLength = [...prices].sort((a, b) => b.model.length - a.model.length);
  }

  get size(): number {
    return this.exact.size;
  }

  /**
   * Exact name first, then without a provider path (`openai/gpt-4o`), then the longest listed
   * name the model starts with (`gpt-4o-2024-08-06` → `gpt-4o`, not `gpt-4`).
   */
  find(model: string): ModelPrice | null {
    const lower = model.trim().toLowerCase();
    const bare = lower.slice(lower.lastIndexOf('/') + 1);
    const direct = this.exact.get(lower) ?? this.exact.get(bare);
    if (direct) return direct;
    for (const price of this.byLength) {
      const name = price.model.toLowerCase();
      if (bare.startsWith(name) || bare.includes(`.${name}`)) return price;
    }
    return null;
  }

  /** Cost in dollars, or null when the model has no price. Cache reads are part of input. */
  cost(model: string, tokens: TokenCounts): number | null {
    const price = this.find(model);
    if (!price) return null;
    const cacheRead = Math.min(tokens.cacheReadTokens, tokens.inputTokens);
    const cacheRate = price.cacheReadPerMTok ?? price.inputPerMTok;
    return (
      ((tokens.inputTokens - cacheRead) * price.inputPerMTok +
        cacheRead * cacheRate +
        tokens.outputTokens * price.outputPerMTok) /
      1_000_000
    );
  }
}

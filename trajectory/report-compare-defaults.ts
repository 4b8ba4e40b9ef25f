// Which two variants the compare page opens on, and whether its two sides are comparable. Two
// variants of different agents differ by more than their configuration, so the page defaults to
// one agent that has two variants and warns when the sides come from different agents.

export interface AgentVariantRuns {
  agent: string | null;
  variant: string;
  runs: number;
}

export interface ComparisonChoice {
  /** The agent compared within; null for all agents. */
  agent: string | null;
  /** The agent was not asked for: the page chose it. */
  agentDefaulted: boolean;
  a: string | undefined;
  b: string | undefined;
  /** The variants to choose from, most runs first (those of the agent, when there is one). */
  variants: string[];
  /** The agents whose runs each side holds, most runs first. */
  agentsOf: { a: (string | null)[]; b: (string | null)[] };
  /** Over all agents, the two sides come from different agents. */
  mixedAgents: boolean;
}

const ranked = (totals: Map<string, number>) =>
  [...totals].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0])).map(([name]) => name);

function add<K>(totals: Map<K, number>, key: K, runs: number): void {
  totals.set(key, (totals.get(key) ?? 0) + runs);
}

/**
 * `asked.agent` is an agent's name, `all` for every agent, or undefined for the default: the
 * agent with the most runs among those with two or more variants, and with the variants the URL
 * names, if it names any (every agent when none has them).
 */
export function chooseComparison(
  pairs: readonly AgentVariantRuns[],
  asked: { agent?: string; a?: string; b?: string },
  all: string,
): ComparisonChoice {
  let agent: string | null = null;
  let agentDefaulted = false;
  if (asked.agent !== undefined && asked.agent !== all) {
    agent = asked.agent;
  } else if (asked.agent === undefined) {
    const variantsOf = new Map<string | null, Set<string>>();
    const runsOf = new Map<string | null, number>();
    for (const p of pairs) {
      variantsOf.set(p.agent, (variantsOf.get(p.agent) ?? new Set()).add(p.variant));
      add(runsOf, p.agent, p.runs);
    }
    const named = [asked.a, asked.b].filter((v): v is string => v !== undefined);
    const candidates = [...runsOf]
      .filter(([a]) => {
        const variants = variantsOf.get(a);
        return a !== null && (variants?.size ?? 0) >= 2 && named.every((v) => variants?.has(v));
      })
      .sort((x, y) => y[1] - x[1] || String(x[0]).localeCompare(String(y[0])));
    if (candidates[0]) {
      agent = candidates[0][0];
      agentDefaulted = true;
    }
  }
  const scoped = agent === null ? pairs : pairs.filter((p) => p.agent === agent);
  const totals = new Map<string, number>();
  for (const p of scoped) add(totals, p.variant, p.runs);
  const variants = ranked(totals);
  const a = asked.a ?? variants[0];
  const b = asked.b ?? variants.find((v) => v !== a);
  const agentsOf = (variant: string | undefined) => {
    const byAgent = new Map<string | null, number>();
    for (const p of scoped) if (p.variant === variant) add(byAgent, p.agent, p.runs);
    return [...byAgent]
      .sort((x, y) => y[1] - x[1] || String(x[0]).localeCompare(String(y[0])))
      .map(([name]) => name);
  };
  const sides = { a: agentsOf(a), b: agentsOf(b) };
  const same = sides.a.length === sides.b.length && sides.a.every((name) => sides.b.includes(name));
  return {
    agent,
    agentDefaulted,
    a,
    b,
    variants,
    agentsOf: sides,
    mixedAgents: agent === null && a !== undefined && b !== undefined && !same,
  };
}

// The kinds of loop pattern (trajectory/loop-patterns.ts), apart from the hashing so the
// browser can read them.
export const PATTERN_KINDS = ['repeat', 'revisit', 'stall', 'tool_circuit'] as const;
export type PatternKind = (typeof PATTERN_KINDS)[number];

/** Each kind as the dashboard names it. */
export const PATTERN_KIND_LABEL: Record<PatternKind, string> = {
  repeat: 'repeat',
  revisit: 'A/B/A revisit',
  stall: 'stall',
  tool_circuit: 'tool circuit',
};

/**
 * Each pattern's label as listed beside the others: patterns that would read the same (one kind,
 * one agent, one label: calls alike up to the label's length) get their signature's first
 * characters, so two rows never look the same.
 */
export function listedLabels(
  patterns: readonly {
    kind: PatternKind;
    agent: string | null;
    label: string;
    signature: string;
  }[],
): string[] {
  const key = (p: (typeof patterns)[number]) => JSON.stringify([p.kind, p.agent, p.label]);
  const counts = new Map<string, number>();
  for (const p of patterns) counts.set(key(p), (counts.get(key(p)) ?? 0) + 1);
  return patterns.map((p) => {
    const label = p.label || '(no action named)';
    return (counts.get(key(p)) ?? 0) > 1 ? `${label} #${p.signature.slice(0, 6)}` : label;
  });
}

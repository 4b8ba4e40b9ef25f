// The kinds of loop pattern (trajectory/loop-patterns.ts), apart from the hashing so the
// browser can read them.
export const PATTERN_KINDS = ['repeat', 'revisit', 'stall', 'tool_circuit'] as const;
export type PatternKind = (typeof PATTERN_KINDS)[number];

// The text a runs search (`q`) matches: goal, agent, variant, the actions taken, the exit reason
// and detail, and error messages, each once. Gathered when a run is derived, so a search reads
// one trigram-indexed column instead of steps and spans.
import type { StoredSpan } from './span-tree';

/** Enough for every word a person would search for; keeps the row and its index small. */
const MAX_PART = 2000;
const MAX_TEXT = 16000;

export interface SearchParts {
  goal: string | null;
  agent: string | null;
  variant: string | null;
  actions: readonly (string | null)[];
  exitReason: string | null;
  exitDetail: string | null;
  spans: readonly StoredSpan[];
}

export function runSearchText(parts: SearchParts): string {
  const seen = new Set<string>();
  const add = (value: string | null | undefined) => {
    const text = value?.trim().slice(0, MAX_PART);
    if (text) seen.add(text);
  };
  add(parts.goal);
  add(parts.agent);
  add(parts.variant);
  for (const action of parts.actions) add(action);
  add(parts.exitReason);
  add(parts.exitDetail);
  for (const span of parts.spans) {
    add(span.facts.exceptionMessage);
    if (span.statusCode === 2) add(span.statusMessage);
  }
  let text = '';
  for (const part of seen) {
    if (text.length + part.length + 1 > MAX_TEXT) break;
    text += (text ? '\n' : '') + part;
  }
  return text;
}

// JSON text from spans, parsed only when its nesting is within MAX_JSON_DEPTH. Every later walk of
// the value (a JSON.stringify for an answer, a read of model messages) recurses once a level: a
// document nested thousands deep parses, and then overflows the stack of whatever walks it. Too
// deep, it stays text, which every reader shows as it is.
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of `[` and `{` outside strings, counted until it passes `limit`. */
export function jsonNesting(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** JSON.parse, refused (ok: false) for text that is not JSON or is nested past the bound. */
export function parseBoundedJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (jsonNesting(text) > MAX_JSON_DEPTH) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

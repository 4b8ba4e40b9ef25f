// Frameworks name why a run stopped inside free text: an exception message that wraps another
// (`Error in agent run: {"error":"MaxTurnsExceededError: Max turns (4) exceeded"}`), a message
// whose name comes after a dump of its payload (`[...]\n\nGraphInterrupt: [...]`). This finds the
// exception-like name in such text, looking inside JSON text as well.

// `MaxTurnsExceededError:`, `GraphInterrupt:`, `InputGuardrailTripwireTriggered` at the end.
const NAME =
  /\b((?:[A-Za-z_][\w]*\.)*[A-Z]\w*?(?:Error|Exception|Interrupt|Triggered|Exceeded))\b(?=\s*(?::|$))/gm;

/** Names too generic to say anything: the wrapper, not the reason. */
const GENERIC = new Set(['error', 'exception', 'baseexception']);

const MAX_TEXT = 20_000;

/** The most specific exception-like name in `text`, or null: the innermost wrapped one first. */
export function reasonNamedInText(text: string): string | null {
  const cut = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  for (const inner of jsonStrings(cut)) {
    const found = reasonNamedInText(inner);
    if (found) return found;
  }
  for (const match of cut.matchAll(NAME)) {
    const name = match[1];
    if (name && !GENERIC.has(name.slice(name.lastIndexOf('.') + 1).toLowerCase())) return name;
  }
  return null;
}

/** The string values of an `error` / `message` / `type` / `name` key in JSON inside the text. */
function jsonStrings(text: string): string[] {
  const start = text.indexOf('{');
  if (start === -1) return [];
  const end = text.lastIndexOf('}');
  if (end <= start) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(start, end + 1));
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return [];
  const record = parsed as Record<string, unknown>;
  return ['error', 'type', 'name', 'message']
    .map((key) => (Object.hasOwn(record, key) ? record[key] : undefined))
    .filter((value): value is string => typeof value === 'string');
}

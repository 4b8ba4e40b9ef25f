// Texts that rows are keyed and indexed by: a run's id, its agent, variant, session and model. A
// B-tree entry holds at most 2,704 bytes (any index entry 8,191), and these go into several
// (runs, steps, rollups, sessions): an id of a few KB of varied text, which ingest lets an
// attribute carry, failed at the write the whole request that brought it, or its run. Each is
// kept to KEY_TEXT_BYTES of UTF-8; a longer one becomes its first bytes and a hash of the whole,
// so two that differ only past the cut stay two. What looks one up (an id in a URL, a filter) goes
// through the same function and finds it. Plain JS: the dashboard's filters run in the browser too.

export const KEY_TEXT_BYTES = 512;
const MARKER = '…#';
const HASH_HEX = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const PREFIX_BYTES = KEY_TEXT_BYTES - encoder.encode(MARKER).length - HASH_HEX;

export function keyText(text: string): string {
  // Three bytes a UTF-16 unit at most: short texts need no counting.
  if (text.length * 3 <= KEY_TEXT_BYTES) return text;
  const bytes = encoder.encode(text);
  if (bytes.length <= KEY_TEXT_BYTES) return text;
  let cut = PREFIX_BYTES;
  while (cut > 0 && ((bytes[cut] as number) & 0xc0) === 0x80) cut--;
  return `${decoder.decode(bytes.subarray(0, cut))}${MARKER}${fnv1a64(bytes)}`;
}

/** `keyText` of a text that may be absent. */
export function keyTextOrNull(text: string | null): string | null {
  return text === null ? null : keyText(text);
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const U64 = (1n << 64n) - 1n;

/** FNV-1a, 64 bits, as 16 hex digits: enough to keep apart texts that share their first 490 bytes. */
function fnv1a64(bytes: Uint8Array): string {
  let hash = FNV_OFFSET;
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & U64;
  return hash.toString(16).padStart(HASH_HEX, '0');
}

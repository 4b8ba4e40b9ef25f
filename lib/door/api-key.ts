import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'lsk_';

/** A new key: 192 random bits, URL-safe, recognisable by its prefix. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

// Keys carry 192 random bits, so a fast hash is enough: nothing to brute-force.
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * What people see to tell keys apart, a fixed few characters whatever the key's length: `lsk_`
 * and four more (24 of a generated key's 192 bits), or the first four of a key chosen by hand
 * (`LOOPSCOPE_INIT_API_KEY`, which may be as short as 16).
 */
export function keyPrefix(key: string): string {
  return key.startsWith(KEY_PREFIX) ? key.slice(0, KEY_PREFIX.length + 4) : key.slice(0, 4);
}

/**
 * Two secrets compared in constant time, whatever their lengths and characters: compared as
 * digests, so a header with a non-ASCII byte is a mismatch, not a length error.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The key from `Authorization: Bearer <key>` (also `x-api-key`, which some exporters set). */
export function keyFromHeaders(headers: { get(name: string): string | null }): string | null {
  const authorization = headers.get('authorization');
  if (authorization) return keyFromAuthorization(authorization);
  return headers.get('x-api-key')?.trim() || null;
}

/** The key of an `authorization` value (`Bearer <key>`), an HTTP header or gRPC metadata. */
export function keyFromAuthorization(authorization: string): string | null {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1] ?? null;
}

import { jcs, normalizeArgs, sha256Hex } from '../trajectory/canonical-hash';

/**
 * The fingerprint of the world state the goal depends on: only the fields named count, so a
 * restart counter or a timestamp does not make an unchanged world look new. Values are
 * normalised like action arguments (key order, spacing and float noise do not matter).
 */
export function stateHash(
  state: Record<string, unknown>,
  fields: readonly string[] = Object.keys(state),
): string {
  const picked: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const field of [...fields].sort()) picked[field] = state[field] ?? null;
  return sha256Hex(`state\n${jcs(normalizeArgs(picked))}`);
}

// The keys this process let in lately, by hash: while the database cannot answer, a key seen in
// the last minutes is let in again so its requests can be held on disk (hold.ts); one never seen,
// or not lately, is refused with 503 as before. Revocation is honoured when the held request is
// moved: a key revoked before the request arrived loses it (server/hold-mover.ts).
import type { KeyScope } from '../db/projects';
import { hashApiKey } from '../lib/door/api-key';

export const RECENT_KEY_MS = 15 * 60_000;
const MAX_KEYS = 10_000;

export class RecentKeys {
  private readonly seen = new Map<string, { scope: KeyScope; atMs: number }>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  remember(key: string, scope: KeyScope): void {
    const hash = hashApiKey(key);
    this.seen.delete(hash);
    this.seen.set(hash, { scope, atMs: this.now() });
    if (this.seen.size > MAX_KEYS) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }

  /** The scope of a key let in within RECENT_KEY_MS, else null. */
  recall(key: string): KeyScope | null {
    const hash = hashApiKey(key);
    const found = this.seen.get(hash);
    if (!found) return null;
    if (this.now() - found.atMs > RECENT_KEY_MS) {
      this.seen.delete(hash);
      return null;
    }
    return found.scope;
  }
}

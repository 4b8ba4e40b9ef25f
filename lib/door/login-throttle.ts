// Password guesses per client address: a few are free, then each failure doubles the wait
// before the next guess is even checked (1 s, 2 s, 4 s … up to 5 minutes). Held by the process.
export const FREE_FAILURES = 5;
const MAX_WAIT_MS = 5 * 60_000;
/** An address that stops failing is forgotten after this long. */
const FORGET_MS = 60 * 60_000;
const MAX_ADDRESSES = 10_000;

interface Attempts {
  failures: number;
  /** No guess from this address is checked before this time. */
  blockedUntil: number;
  lastFailure: number;
}

export class LoginThrottle {
  private readonly byAddress = new Map<string, Attempts>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds this address must still wait before a guess is checked; 0 when it may guess now. */
  waitSeconds(address: string): number {
    const attempts = this.current(address);
    if (!attempts) return 0;
    return Math.max(0, Math.ceil((attempts.blockedUntil - this.now()) / 1000));
  }

  failed(address: string): void {
    const now = this.now();
    const attempts = this.current(address) ?? { failures: 0, blockedUntil: 0, lastFailure: now };
    attempts.failures++;
    attempts.lastFailure = now;
    const over = attempts.failures - FREE_FAILURES;
    if (over > 0) attempts.blockedUntil = now + Math.min(MAX_WAIT_MS, 1000 * 2 ** (over - 1));
    this.byAddress.delete(address); // re-inserted last: the map is oldest first
    this.byAddress.set(address, attempts);
    if (this.byAddress.size > MAX_ADDRESSES) {
      const oldest = this.byAddress.keys().next().value;
      if (oldest !== undefined) this.byAddress.delete(oldest);
    }
  }

  succeeded(address: string): void {
    this.byAddress.delete(address);
  }

  private current(address: string): Attempts | undefined {
    const attempts = this.byAddress.get(address);
    if (attempts && this.now() - attempts.lastFailure > FORGET_MS) {
      this.byAddress.delete(address);
      return undefined;
    }
    return attempts;
  }
}

const THROTTLE = Symbol.for('loopscope.login-throttle');
type Holder = { [THROTTLE]?: LoginThrottle };

export function loginThrottle(): LoginThrottle {
  return ((globalThis as Holder)[THROTTLE] ??= new LoginThrottle());
}

/** Set by the server from the socket, never by the client: the address a guess came from. */
export const CLIENT_ADDRESS_HEADER = 'x-loopscope-client-address';

import { AppError } from '../lib/app-error';

export interface AdmissionLimits {
  /** Requests at work (decode, validate, store) at once. */
  concurrency: number;
  /** Requests waiting: being authenticated, having their body read, or waiting for work. */
  queue: number;
  /** Requests in flight (waiting or at work) for one project, and for one key. */
  perProject: number;
  perKey: number;
  /**
   * The longest a request whose body has arrived may wait for work: past it, and whenever the
   * measured service time says a newcomer would wait longer, 429. Kept well under the OTel
   * exporters' 10 s timeout, so a refusal is heard and retried instead of timing out.
   */
  maxWaitMs: number;
  /**
   * Bytes of request bodies held at once, as they arrived (gzip stays gzip), by requests not yet
   * finished: what bounds the memory of many bodies arriving at once, so that `queue` can let
   * many exporters upload side by side.
   */
  bodyBytes: number;
}

export interface AdmissionState {
  /** Requests entered and not finished: being read, waiting for work, or at work. */
  inFlight: number;
  atWork: number;
  /** Requests whose body has arrived, waiting for a place at work. */
  waitingForWork: number;
  /** Bytes of request bodies held, as sent. */
  bodyBytesHeld: number;
  /** Past half the places or half the body bound: slow bodies are cut for their pace. */
  crowded: boolean;
}

export interface AdmissionScope {
  projectId: string;
  keyId: string;
}

export const DEFAULT_MAX_WAIT_MS = 3000;
export const DEFAULT_BODY_BYTES_IN_FLIGHT = 256 * 1024 * 1024;

/**
 * The defaults from the two numbers an operator sets: any one project (and key) may take every
 * place but one, so a single exporter flushing many batches at once still has nearly all the
 * room, and another client always finds a place.
 */
export function admissionLimits(
  concurrency: number,
  queue: number,
  options: Partial<Omit<AdmissionLimits, 'concurrency' | 'queue'>> = {},
): AdmissionLimits {
  const perProject = options.perProject ?? Math.max(1, concurrency + queue - 1);
  return {
    concurrency,
    queue,
    perProject,
    perKey: options.perKey ?? perProject,
    maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
    bodyBytes: options.bodyBytes ?? DEFAULT_BODY_BYTES_IN_FLIGHT,
  };
}

// How fast the estimate of the service time follows a change in load.
const SMOOTHING = 0.2;
const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * Bounded, fair admission for ingest. A request enters before it is authenticated (a refusal at
 * capacity costs no database read), then is admitted for its project and key (no client can hold
 * more than its share), reads its body (its bytes counted against `bodyBytes`), and then waits
 * for work at most `maxWaitMs`. A body still arriving is the client's time, not a wait for work:
 * a burst of exporters uploading at once is not refused for the pace of their uploads. Past any
 * bound a request is refused at once with 429 and Retry-After, so memory stays bounded and
 * nothing is accepted that could then be dropped.
 */
export class Admission {
  private active = 0;
  private tickets = 0;
  private heldBytes = 0;
  private readonly waiting: Waiter[] = [];
  private readonly perProject = new Map<string, number>();
  private readonly perKey = new Map<string, number>();
  /** Smoothed time a request spends at work, ms; null until one has finished. */
  private serviceMs: number | null = null;

  constructor(
    readonly limits: AdmissionLimits,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Past half its places or half its bound of bodies held: room is running short, and a body
   * arriving slower than the minimum pace is cut (read-body.ts) rather than let hold its place.
   */
  crowded(): boolean {
    const { concurrency, queue, bodyBytes } = this.limits;
    return 2 * this.tickets > concurrency + queue || 2 * this.heldBytes > bodyBytes;
  }

  /** What the door holds now, as /api/health reports it. */
  state(): AdmissionState {
    return {
      inFlight: this.tickets,
      atWork: this.active,
      waitingForWork: this.waiting.length,
      bodyBytesHeld: this.heldBytes,
      crowded: this.crowded(),
    };
  }

  /**
   * The wait a request ready now can expect before it is at work, from measured service: the
   * requests ahead of it are those waiting for work, not those whose bodies are still arriving.
   */
  estimatedWaitMs(): number {
    if (this.serviceMs === null || this.active < this.limits.concurrency) return 0;
    return ((this.waiting.length + 1) * this.serviceMs) / this.limits.concurrency;
  }

  /**
   * Takes a place or refuses at once: when every place is taken, when the expected wait is past
   * `maxWaitMs`, or when `overload` says why work already accepted is not keeping up.
   */
  enter(overload: string | null = null): AdmissionTicket {
    const { concurrency, queue, maxWaitMs } = this.limits;
    if (overload !== null) throw refusal(overload, this.retryAfterSeconds());
    if (this.tickets >= concurrency + queue) {
      throw refusal('ingest is at capacity', this.retryAfterSeconds());
    }
    const wait = this.estimatedWaitMs();
    if (wait > maxWaitMs) {
      throw refusal(
        `ingest would keep this request waiting about ${seconds(wait)} s`,
        seconds(wait),
      );
    }
    this.tickets++;
    return new AdmissionTicket(this);
  }

  /** @internal the ticket's steps */
  admitScope(scope: AdmissionScope): void {
    const { perProject, perKey } = this.limits;
    if ((this.perProject.get(scope.projectId) ?? 0) >= perProject) {
      throw refusal(`this project already has ${perProject} ingest requests in flight`, 1);
    }
    if ((this.perKey.get(scope.keyId) ?? 0) >= perKey) {
      throw refusal(`this API key already has ${perKey} ingest requests in flight`, 1);
    }
    bump(this.perProject, scope.projectId, 1);
    bump(this.perKey, scope.keyId, 1);
  }

  /** @internal */
  releaseScope(scope: AdmissionScope): void {
    bump(this.perProject, scope.projectId, -1);
    bump(this.perKey, scope.keyId, -1);
  }

  /** @internal counts `bytes` more of a body against `bodyBytes`; 429 past it. */
  holdBytes(bytes: number): void {
    const { bodyBytes } = this.limits;
    if (this.heldBytes + bytes > bodyBytes) {
      throw refusal(
        `ingest holds ${size(this.heldBytes)} of request bodies, its bound is ${size(bodyBytes)}`,
        this.retryAfterSeconds(),
      );
    }
    this.heldBytes += bytes;
  }

  /** @internal */
  releaseBytes(bytes: number): void {
    this.heldBytes -= bytes;
  }

  /**
   * @internal resolves when the request, its body read, may work, or rejects with 429 once it
   * has waited `maxWaitMs` for that.
   */
  acquire(): Promise<void> {
    if (this.active < this.limits.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(this.waitedTooLong());
      }, this.limits.maxWaitMs);
      this.waiting.push(waiter);
    });
  }

  /** @internal a request leaves work after `workedMs`. */
  release(workedMs: number): void {
    this.serviceMs =
      this.serviceMs === null ? workedMs : this.serviceMs + SMOOTHING * (workedMs - this.serviceMs);
    const next = this.waiting.shift();
    if (next) next.grant();
    else this.active--;
  }

  /** @internal */
  leave(): void {
    this.tickets--;
  }

  /** @internal */
  clock(): number {
    return this.now();
  }

  private waitedTooLong(): AppError {
    return refusal(
      `no ingest slot came free within ${seconds(this.limits.maxWaitMs)} s`,
      this.retryAfterSeconds(),
    );
  }

  /** A 429 for a reason the caller found (its project's derivation lagging). */
  refusal(why: string): AppError {
    return refusal(why, this.retryAfterSeconds());
  }

  private retryAfterSeconds(): number {
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, seconds(this.estimatedWaitMs())));
  }
}

/** One request's way through admission; `leave` in a `finally`, whatever happened. */
export class AdmissionTicket {
  private scope: AdmissionScope | null = null;
  private workingSince: number | null = null;
  private left = false;
  private held = 0;

  constructor(private readonly admission: Admission) {}

  /** Counts the request against its project and key; 429 past their share. */
  admit(scope: AdmissionScope): void {
    this.admission.admitScope(scope);
    this.scope = scope;
  }

  /** Counts `bytes` more of the body as it arrives; 429 past the bound of bodies held. */
  hold(bytes: number): void {
    this.admission.holdBytes(bytes);
    this.held += bytes;
  }

  /** Waits for a slot at work; 429 when none comes free in time. */
  async work(): Promise<void> {
    await this.admission.acquire();
    this.workingSince = this.admission.clock();
  }

  leave(): void {
    if (this.left) return;
    this.left = true;
    this.admission.releaseBytes(this.held);
    if (this.workingSince !== null) {
      this.admission.release(this.admission.clock() - this.workingSince);
    }
    if (this.scope) this.admission.releaseScope(this.scope);
    this.admission.leave();
  }
}

interface Waiter {
  grant(): void;
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}

function size(bytes: number): string {
  const mib = 1024 * 1024;
  return bytes >= mib ? `${Math.round(bytes / mib)} MiB` : `${bytes} bytes`;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function refusal(why: string, retryAfterSeconds: number): AppError {
  return new AppError('rate_limited', `${why}; retry after ${retryAfterSeconds} s`, {
    retryAfterSeconds,
  });
}

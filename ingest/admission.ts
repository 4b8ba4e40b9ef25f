import { AppError } from '../lib/app-error';

/**
 * Bounded admission for ingest: at most `concurrency` requests at work and `queue` waiting; past
 * that a request is refused at once with 429 and Retry-After, so memory stays bounded and nothing
 * is accepted that could then be dropped.
 */
export class Admission {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
    private readonly retryAfterSeconds = 1,
  ) {}

  get inFlight(): number {
    return this.active + this.waiting.length;
  }

  /**
   * Refuses at once when there is no room, or when `overloaded` says work already accepted is
   * not keeping up: a cheap answer before any other work (authentication reads the database).
   */
  refuseIfFull(overloaded = false): void {
    if (overloaded || (this.active >= this.concurrency && this.waiting.length >= this.queue)) {
      throw this.refusal();
    }
  }

  private refusal(): AppError {
    return new AppError('rate_limited', 'ingest is at capacity; retry after the indicated delay', {
      retryAfterSeconds: this.retryAfterSeconds,
    });
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queue) return Promise.reject(this.refusal());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

// How late this process's event loop runs. With PGlite the database engine runs on the same
// thread as HTTP, so a loop that lags is a server that has taken more than it can do: requests
// then wait unread before any handler sees them, where no queue limit can count them.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const WINDOW_MS = 500;

export class EventLoopLoad {
  private readonly histogram = monitorEventLoopDelay({ resolution: 20 });
  private readonly timer: NodeJS.Timeout;
  private lastMeanMs = 0;

  constructor(private readonly limitMs: number) {
    this.histogram.enable();
    this.timer = setInterval(() => {
      const mean = this.histogram.mean / 1e6;
      this.lastMeanMs = Number.isFinite(mean) ? mean : 0;
      this.histogram.reset();
    }, WINDOW_MS);
    this.timer.unref();
  }

  /** The mean delay over the last half second, in ms. */
  get lagMs(): number {
    return this.lastMeanMs;
  }

  /** Why to refuse new work now, or null. */
  overload(): string | null {
    if (this.limitMs <= 0 || this.lastMeanMs <= this.limitMs) return null;
    return `the server is running ${Math.round(this.lastMeanMs)} ms behind`;
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}

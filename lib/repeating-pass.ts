/**
 * Work that runs in passes: whenever kicked and every `pollMs` once started. A kick during a
 * pass runs one more pass after it (never two at once), so nothing kicked is left waiting for
 * the timer. Subclasses say what a pass does.
 */
export abstract class RepeatingPass {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;

  protected abstract pass(): Promise<void>;

  /** Whether start() was called and stop() not since: a pass may end early once stopped. */
  protected get started(): boolean {
    return this.timer !== null;
  }

  start(pollMs = 1000): void {
    this.timer = setInterval(() => this.kick(), pollMs);
    this.timer.unref();
    this.kick();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** A pass now, or right after the current one; nothing once stopped (or before start). */
  kick(): void {
    if (!this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass().finally(() => {
      this.running = null;
      if (this.again && this.timer) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves when the current pass (if any) is over. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}

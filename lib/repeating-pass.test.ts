import { describe, expect, it } from 'vitest';
import { RepeatingPass } from './repeating-pass';

class Counted extends RepeatingPass {
  passes = 0;
  private release: (() => void) | null = null;
  hold = false;
  protected async pass(): Promise<void> {
    this.passes++;
    if (this.hold) await new Promise<void>((resolve) => (this.release = resolve));
  }
  letGo(): void {
    this.hold = false;
    this.release?.();
  }
}

describe('RepeatingPass', () => {
  it('runs a pass at start and on every kick while started', async () => {
    const work = new Counted();
    work.start(60_000);
    await work.idle();
    work.kick();
    await work.idle();
    expect(work.passes).toBe(2);
    work.stop();
  });

  it('folds kicks during a pass into one more pass after it', async () => {
    const work = new Counted();
    work.hold = true;
    work.start(60_000);
    work.kick();
    work.kick();
    work.kick();
    expect(work.passes).toBe(1);
    work.letGo();
    await work.idle();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await work.idle();
    expect(work.passes).toBe(2);
    work.stop();
  });

  it('does nothing on a kick before start or after stop', async () => {
    const work = new Counted();
    work.kick();
    await work.idle();
    expect(work.passes).toBe(0);
    work.start(60_000);
    await work.idle();
    work.stop();
    work.kick();
    await work.idle();
    expect(work.passes).toBe(1);
  });
});

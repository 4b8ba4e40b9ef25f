import { describe, expect, it } from 'vitest';
import { DeriveBatchSize } from './derive-batch-size';

describe('a derivation batch', () => {
  it('takes the most runs before any batch was timed', () => {
    expect(new DeriveBatchSize().next(0)).toBe(DeriveBatchSize.MAX);
  });

  it('lasts about the target while the deriver keeps up', () => {
    const batch = new DeriveBatchSize();
    batch.took(50, 500); // 10 ms a run
    expect(batch.next(0)).toBe(15);
    expect(batch.next(DeriveBatchSize.KEEPING_UP)).toBe(15);
  });

  it('grows with the backlog past keeping up, to the most runs when far behind', () => {
    const batch = new DeriveBatchSize();
    batch.took(50, 500);
    expect(batch.next(2 * DeriveBatchSize.KEEPING_UP)).toBe(30);
    expect(batch.next(100 * DeriveBatchSize.KEEPING_UP)).toBe(DeriveBatchSize.MAX);
  });

  it('takes a few runs even when each is slow', () => {
    const batch = new DeriveBatchSize();
    batch.took(4, 4000);
    expect(batch.next(0)).toBe(DeriveBatchSize.MIN);
  });

  it('moves only part of the way after one slow batch, and ignores an empty one', () => {
    const batch = new DeriveBatchSize();
    batch.took(50, 500);
    batch.took(0, 900);
    expect(batch.next(0)).toBe(15);
    batch.took(10, 200); // 20 ms a run: smoothed to 13
    expect(batch.next(0)).toBe(11);
  });
});

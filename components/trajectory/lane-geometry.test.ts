import { describe, expect, it } from 'vitest';
import { progressDescription } from './lane-drawing';
import { ROWS, laneGeometry } from './lane-geometry';
import type { LaneStep } from './types';

const step = (ordinal: number, progress: number | null): LaneStep => ({
  ordinal,
  index: ordinal,
  durationMs: 10,
  action: 'fix',
  actionHash: null,
  actionKey: null,
  stateHash: null,
  stateKey: null,
  progress,
  verdict: null,
  verdictSource: null,
  errorClass: null,
  costUsd: 0,
  tokens: 0,
  inputTokens: 0,
  outputTokens: 0,
  signals: [],
  repeatOf: null,
  revisitOf: null,
  revisitCycle: null,
  repeatFrom: null,
  revisitFrom: null,
  stallFrom: null,
});

// Failing tests falling from 7 to 4: the metric improves downwards.
const falling = [7, 6, null, 5, 4].map((p, k) => step(k + 1, p));
const ys = (path: string) => [...path.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => Number(m[1]));

describe('the progress lane', () => {
  it('draws values on a plain axis, higher values up, whichever way is better', () => {
    for (const direction of ['down', 'up'] as const) {
      const g = laneGeometry(falling, 800, { progressDirection: direction, wasted: false });
      const y = ys(g.progressPath ?? '');
      // Falling values fall on screen: every point lower (a larger y) than the one before.
      expect(y).toHaveLength(4);
      expect(y.every((v, k) => k === 0 || v > (y[k - 1] as number))).toBe(true);
      expect(g.progressTicks.map((t) => t.value)).toEqual([7, 4]);
      const [top, bottom] = g.progressTicks;
      expect(top!.y).toBeLessThan(bottom!.y);
      expect(top!.y).toBeGreaterThanOrEqual(ROWS.progress.y);
      expect(bottom!.y).toBeLessThanOrEqual(ROWS.progress.y + ROWS.progress.h);
    }
  });

  it('says in words what it counts, where it went and which way is better', () => {
    const g = laneGeometry(falling, 800, { progressDirection: 'down', wasted: false });
    expect(progressDescription(falling, 'failing tests', 'down', g.progressRange)).toBe(
      'Progress (failing tests): 7 at step 1 to 4 at step 5, lower is better',
    );
    expect(progressDescription(falling, null, 'up', g.progressRange)).toBe(
      'Progress (loop.progress): 7 at step 1 to 4 at step 5, higher is better',
    );
    const none = laneGeometry([step(1, null)], 800, { progressDirection: 'down', wasted: false });
    expect(none.progressTicks).toEqual([]);
    expect(progressDescription([step(1, null)], null, 'down', none.progressRange)).toBe(
      'Progress (loop.progress): not reported',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { progressDescription } from './lane-drawing';
import { GUTTER, ROWS, laneGeometry, stallWindows } from './lane-geometry';
import type { LaneStep } from './types';

function step(ordinal: number, over: Partial<LaneStep> = {}): LaneStep {
  return {
    ordinal,
    index: ordinal,
    durationMs: 10,
    action: 'edit',
    actionHash: 'h',
    actionKey: 0,
    stateHash: null,
    stateKey: null,
    progress: null,
    verdict: null,
    verdictSource: null,
    errorClass: null,
    costUsd: 0.01,
    tokens: 10,
    inputTokens: 8,
    outputTokens: 2,
    signals: [],
    repeatOf: null,
    revisitOf: null,
    revisitCycle: null,
    repeatFrom: null,
    revisitFrom: null,
    stallFrom: null,
    ...over,
  };
}

const options = { progressDirection: 'down' as const, wasted: true };

describe('laneGeometry', () => {
  it('gives each step a cell of the plot, with its letter when there is room', () => {
    const steps = [step(1, { actionKey: 0 }), step(2, { actionKey: 1 }), step(3, { actionKey: 0 })];
    const g = laneGeometry(steps, GUTTER + 20 + 300, options);
    expect(g.plotW).toBe(300);
    expect(g.stride).toBe(1);
    expect(g.showLetters).toBe(true);
    expect(g.actionCells.map((c) => [c.x, c.w, c.letter])).toEqual([
      [GUTTER, 100, 'A'],
      [GUTTER + 100, 100, 'B'],
      [GUTTER + 200, 100, 'A'],
    ]);
  });

  it('shares cells past one step per 2 px and merges equal neighbours, so long runs stay small', () => {
    const steps = Array.from({ length: 10_000 }, (_, k) =>
      step(k + 1, { actionKey: k < 5000 ? 0 : 1 }),
    );
    const g = laneGeometry(steps, 1000, options);
    expect(g.stride).toBeGreaterThan(1);
    expect(g.showLetters).toBe(false);
    expect(g.actionCells).toHaveLength(2);
    const right = g.actionCells[1]!;
    expect(right.x + right.w).toBeCloseTo(g.plotX + g.plotW, 6);
  });

  it('draws an arc from each revisit back to the step it returns to, and marks repeats and circuits', () => {
    const steps = [
      step(1, { stateKey: 0 }),
      step(2, { stateKey: 1 }),
      step(3, { stateKey: 0, revisitFrom: 1, signals: ['revisit'] }),
      step(4, { signals: ['repeat', 'tool_circuit'] }),
    ];
    const g = laneGeometry(steps, 800, options);
    expect(g.arcs.map((a) => a.ordinal)).toEqual([3]);
    expect(g.arcs[0]?.wide).toBe(true);
    expect(g.marks.map((m) => [m.kind, m.ordinal])).toEqual([
      ['repeat', 4],
      ['circuit', 4],
    ]);
  });

  it('takes the progress range of 100,000 steps without overflowing the stack', () => {
    const steps = Array.from({ length: 100_000 }, (_, k) => step(k + 1, { progress: k % 7 }));
    expect(laneGeometry(steps, 1200, options).progressRange).toEqual({ min: 0, max: 6 });
  });

  it('shades spend after the first loop signal only when the run wasted it', () => {
    const steps = [step(1), step(2, { signals: ['repeat'] }), step(3)];
    expect(laneGeometry(steps, 800, options).firstSignal?.ordinal).toBe(2);
    expect(laneGeometry(steps, 800, options).wastedArea).not.toBeNull();
    expect(laneGeometry(steps, 800, { ...options, wasted: false }).wastedArea).toBeNull();
  });

  it('ticks the axis with the step numbers the spans carry', () => {
    const steps = Array.from({ length: 40 }, (_, k) => step(k + 1, { index: k + 101 }));
    const labels = laneGeometry(steps, 1200, options).ticks.map((t) => t.label);
    expect(labels[0]).toBe('101');
    expect(labels.length).toBeGreaterThan(3);
    expect(labels.length).toBeLessThanOrEqual(10);
  });
});

describe('stallWindows', () => {
  it('spans from the best the stall failed to beat to the next improvement', () => {
    const progress = [5, 5, 5, 5, 5, 5, 3, 3];
    const steps = progress.map((p, k) =>
      step(k + 1, k === 5 ? { progress: p, signals: ['stall'], stallFrom: 1 } : { progress: p }),
    );
    expect(stallWindows(steps, 'down')).toEqual([[1, 6]]);
    expect(stallWindows(steps, 'up')).toEqual([[1, 8]]);
  });
});

const progressStep = (ordinal: number, progress: number | null): LaneStep => ({
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
const falling = [7, 6, null, 5, 4].map((p, k) => progressStep(k + 1, p));
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
    const none = laneGeometry([progressStep(1, null)], 800, {
      progressDirection: 'down',
      wasted: false,
    });
    expect(none.progressTicks).toEqual([]);
    expect(progressDescription([progressStep(1, null)], null, 'down', none.progressRange)).toBe(
      'Progress (loop.progress): not reported',
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { TrajectoryStepRecord } from '@/lib/api-types';
import { buildTrajectory, expandTrajectory, hueFor, letterFor, letterSequence } from './lane-model';

function row(index: number, over: Partial<TrajectoryStepRecord> = {}): TrajectoryStepRecord {
  return {
    ordinal: index,
    index,
    startMs: index * 1000,
    durationMs: 10,
    action: 'edit',
    actionHash: 'h-edit',
    stateHash: null,
    resultHash: null,
    progress: null,
    verdict: null,
    verdictSource: null,
    verdictFields: null,
    errorClass: null,
    costUsd: 0.01,
    inputTokens: 100,
    outputTokens: 10,
    signals: [],
    repeatOf: null,
    revisitOf: null,
    revisitCycle: null,
    stallSince: null,
    ...over,
  };
}

describe('letters and hues', () => {
  it.each([
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [27, 'AB'],
    [701, 'ZZ'],
    [702, 'AAA'],
  ])('key %i reads %s', (key, letter) => {
    expect(letterFor(key)).toBe(letter);
  });

  it('keeps neighbouring identities far apart on the colour wheel', () => {
    for (let k = 0; k < 20; k++) {
      const gap = Math.abs(hueFor(k + 1) - hueFor(k));
      expect(Math.min(gap, 360 - gap)).toBeGreaterThan(90);
    }
  });

  it('reads a lane as its letters, cut after the limit', () => {
    expect(letterSequence([0, 1, 0, null, 2])).toBe('A B A · C');
    expect(letterSequence([0, 1, 0, 1], 2)).toBe('A B …');
  });
});

describe('the wire form of a trajectory and back', () => {
  it('keys hashes by first appearance, counts them, and shows the state lane of state hashes', () => {
    const wire = buildTrajectory([
      row(1, { action: 'fix_a', actionHash: 'aaa111', stateHash: 's1' }),
      row(2, { action: 'fix_b', actionHash: 'bbb222', stateHash: 's2' }),
      row(3, { action: 'fix_a', actionHash: 'aaa111', stateHash: 's1', revisitOf: 1 }),
    ]);
    expect(wire.stateSource).toBe('state');
    expect(wire.actionKey).toEqual([0, 1, 0]);
    expect(wire.stateKey).toEqual([0, 1, 0]);
    expect(wire.actions).toEqual([
      { key: 0, hash: 'aaa111', name: 'fix_a', count: 2 },
      { key: 1, hash: 'bbb222', name: 'fix_b', count: 1 },
    ]);
  });

  it('lets result hashes stand in when the run sends no state, and shows none without either', () => {
    expect(buildTrajectory([row(1, { resultHash: 'r1' }), row(2)]).stateSource).toBe('result');
    const none = buildTrajectory([row(1), row(2)]);
    expect(none.stateSource).toBe('none');
    expect(none.stateKey).toEqual([null, null]);
  });

  it('cuts hashes to 8 characters on the wire', () => {
    const wire = buildTrajectory([row(1, { actionHash: 'a'.repeat(64) })]);
    expect(wire.actions[0]?.hash).toBe('aaaaaaaa');
  });

  it('expands to one step per position, step numbers turned into the positions they name', () => {
    // Step numbers need not be unique: the latest earlier position with the number is meant.
    const wire = buildTrajectory([
      row(1, { stateHash: 's1' }),
      row(2, { stateHash: 's2' }),
      row(2, { stateHash: 's1', revisitOf: 1, revisitCycle: 1 }),
      row(4, { stateHash: 's2', revisitOf: 2, signals: ['revisit'], repeatOf: 2 }),
    ]);
    const { steps, stateSource } = expandTrajectory(wire);
    expect(stateSource).toBe('state');
    expect(steps.map((s) => [s.ordinal, s.index, s.revisitFrom, s.repeatFrom])).toEqual([
      [1, 1, null, null],
      [2, 2, null, null],
      [3, 2, 1, null],
      [4, 4, 3, 3],
    ]);
    expect(steps[0]).toMatchObject({ action: 'edit', tokens: 110, costUsd: 0.01 });
  });
});

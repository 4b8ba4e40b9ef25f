import { describe, expect, it } from 'vitest';
import {
  detectRepeats,
  detectRevisits,
  detectStalls,
  detectToolCircuits,
  observedStates,
} from './signals';
import { steps } from './test-steps';

/** Step numbers (1-based) of marked steps, with the step they name. */
function marks(found: (number | null)[]): [number, number][] {
  return found.flatMap((of, k) => (of === null ? [] : [[k + 1, of + 1] as [number, number]]));
}

describe('observedStates', () => {
  it('uses state hashes when the run has any', () => {
    const run = steps({ states: ['A', null, 'B'], results: ['x', 'y', 'z'] });
    expect(observedStates(run)).toEqual(['A', null, 'B']);
  });
  it('falls back to result hashes when the run has no state hash at all', () => {
    const run = steps({ results: ['x', null, 'z'] });
    expect(observedStates(run)).toEqual(['x', null, 'z']);
  });
});

describe('detectRepeats', () => {
  const cases: {
    name: string;
    actions: (string | null)[];
    states?: (string | null)[];
    results?: (string | null)[];
    expected: [number, number][];
  }[] = [
    {
      name: 'restart tool that always answers "restart ok": repeat on the second restart',
      actions: ['restart', 'restart', 'restart'],
      results: ['ok', 'ok', 'ok'],
      expected: [
        [2, 1],
        [3, 2],
      ],
    },
    {
      name: 'same call after the state changed is not a repeat',
      actions: ['fix', 'edit', 'fix'],
      states: ['S1', 'S2', 'S2'],
      expected: [],
    },
    {
      name: 'same call again with nothing changed since, another call in between',
      actions: ['fix', 'read', 'fix'],
      states: ['S1', 'S1', 'S1'],
      expected: [[3, 1]],
    },
    {
      name: 'unknown states between are skipped; known ones all equal',
      actions: ['fix', 'read', 'fix'],
      states: ['S1', null, 'S9'],
      expected: [[3, 1]],
    },
    {
      name: 'no known state between i and j-1 is no comparison',
      actions: ['fix', 'fix'],
      states: [null, 'S1'],
      expected: [],
    },
    {
      name: 'names the latest earlier step with the same action',
      actions: ['a', 'a', 'b', 'a'],
      states: ['S1', 'S2', 'S2', 'S2'],
      expected: [
        [2, 1],
        [4, 2],
      ],
    },
    {
      name: 'paginated listing: arguments and state change every call',
      actions: ['list?p=1', 'list?p=2', 'list?p=3', 'list?p=4'],
      states: ['P1', 'P2', 'P3', 'P4'],
      expected: [],
    },
    {
      name: 'without state or result hashes, three in a row is a repeat',
      actions: ['poll', 'poll', 'poll', 'poll', 'other', 'poll', 'poll'],
      expected: [
        [3, 2],
        [4, 3],
      ],
    },
    {
      name: 'steps without an action are ignored',
      actions: [null, null, null],
      states: ['S', 'S', 'S'],
      expected: [],
    },
  ];
  it.each(cases)('$name', ({ actions, states, results, expected }) => {
    const run = steps({ actions, states, results }, actions.length);
    expect(marks(detectRepeats(run, observedStates(run)))).toEqual(expected);
  });
});

describe('detectRevisits', () => {
  const cases: { name: string; states: (string | null)[]; expected: [number, number][] }[] = [
    { name: 'A, B, A: revisit at 3 of 1 (cycle 2)', states: ['A', 'B', 'A'], expected: [[3, 1]] },
    { name: 'A, B, C, A: cycle 3', states: ['A', 'B', 'C', 'A'], expected: [[4, 1]] },
    {
      name: 'fix A / fix B oscillation marks every return',
      states: ['A', 'B', 'A', 'B', 'A'],
      expected: [
        [3, 1],
        [4, 2],
        [5, 3],
      ],
    },
    {
      name: 'A, A is no revisit (nothing different between)',
      states: ['A', 'A', 'A'],
      expected: [],
    },
    {
      name: 'unknown states in between do not count as different',
      states: ['A', null, 'A'],
      expected: [],
    },
    { name: 'A, B, B, A: names the latest A', states: ['A', 'B', 'B', 'A'], expected: [[4, 1]] },
    { name: 'all distinct', states: ['A', 'B', 'C', 'D'], expected: [] },
  ];
  it.each(cases)('$name', ({ states, expected }) => {
    expect(marks(detectRevisits(states))).toEqual(expected);
  });
});

describe('detectStalls', () => {
  const cases: {
    name: string;
    progress: (number | null)[];
    direction?: 'down' | 'up';
    window?: number;
    expected: [number, number][];
  }[] = [
    {
      name: 'progress 5 at step 1 and 5 ever after: stall at step 6',
      progress: [5, 5, 5, 5, 5, 5, 5, 5],
      expected: [[6, 1]],
    },
    {
      name: 'improving every few steps: no stall',
      progress: [9, 9, 9, 8, 8, 8, 8, 7, 7, 7, 6],
      expected: [],
    },
    {
      name: 'steps without a progress value do not count',
      progress: [5, null, 5, null, 5, 5, null, 5, 5],
      expected: [[9, 1]],
    },
    {
      name: 'worse values do not reset the streak',
      progress: [3, 4, 5, 6, 7, 8],
      expected: [[6, 1]],
    },
    {
      name: 'direction up: rising is improvement',
      progress: [1, 2, 3, 4, 5, 6, 7],
      direction: 'up',
      expected: [],
    },
    {
      name: 'direction up: falling is no improvement',
      progress: [7, 6, 5, 4, 3, 2],
      direction: 'up',
      expected: [[6, 1]],
    },
    {
      name: 'window 2, marked once per streak, again after a new best',
      progress: [5, 5, 5, 5, 4, 4, 4],
      window: 2,
      expected: [
        [3, 1],
        [7, 5],
      ],
    },
  ];
  it.each(cases)('$name', ({ progress, direction = 'down', window = 5, expected }) => {
    const run = steps({ progress });
    expect(marks(detectStalls(run, { window, direction }))).toEqual(expected);
  });
});

describe('detectToolCircuits', () => {
  it('marks the Nth failure of one tool in a row', () => {
    const run = steps({
      actions: ['db', 'db', 'search', 'db', 'db', 'db'],
      failed: [true, true, false, true, true, true],
    });
    const marked = detectToolCircuits(run, { threshold: 3 });
    expect(marked.flatMap((m, k) => (m ? [k + 1] : []))).toEqual([4]);
  });
  it('a success of the tool resets its count', () => {
    const run = steps({
      actions: ['db', 'db', 'db', 'db', 'db'],
      failed: [true, true, false, true, true],
    });
    expect(detectToolCircuits(run, { threshold: 3 }).some(Boolean)).toBe(false);
  });
});

describe('linear time', () => {
  it('derives signals for 100,000 steps in one pass', () => {
    const n = 100_000;
    const run = steps({
      actions: Array.from({ length: n }, (_, k) => `a${k % 7}`),
      states: Array.from({ length: n }, (_, k) => `s${k % 3}`),
      progress: Array.from({ length: n }, (_, k) => n - Math.floor(k / 3)),
    });
    const states = observedStates(run);
    expect(detectRepeats(run, states).filter((m) => m !== null).length).toBe(0);
    expect(detectRevisits(states).filter((m) => m !== null).length).toBe(n - 3);
  });
});

import { describe, expect, it } from 'vitest';
import { alignRuns } from './align-runs';
import type { DiffStep } from './align-runs';

/** Steps from "action:state" strings (state after the colon, optional), numbered from `first`. */
function run(spec: string, first = 1, outcome: 'state' | 'result' = 'state'): DiffStep[] {
  return spec
    .split(' ')
    .filter(Boolean)
    .map((token, k) => {
      const [action, value] = token.split(':');
      return {
        index: first + k,
        actionHash: action === '-' ? null : `h(${action})`,
        stateHash: outcome === 'state' ? (value ?? null) : null,
        resultHash: outcome === 'result' ? (value ?? null) : null,
      };
    });
}

describe('alignRuns', () => {
  it('identical runs are same step for step, with no divergence', () => {
    const steps = run('A:1 B:2 C:3 C:3');
    expect(alignRuns(steps, steps)).toEqual({
      alignment: [
        { kind: 'same', a: 1, b: 1 },
        { kind: 'same', a: 2, b: 2 },
        { kind: 'same', a: 3, b: 3 },
        { kind: 'same', a: 4, b: 4 },
      ],
      firstDivergence: null,
    });
  });

  it('a failing run that restarts where the passing one fixed the config', () => {
    // a: check, restart, restart, restart (state stays down); b: check, fix, restart (up).
    const failing = run('check:down restart:down restart:down restart:down');
    const passing = run('check:down fix:down restart:up');
    const { alignment, firstDivergence } = alignRuns(failing, passing);
    expect(alignment).toEqual([
      { kind: 'same', a: 1, b: 1 },
      { kind: 'only_b', a: null, b: 2 },
      { kind: 'changed', a: 2, b: 3 },
      { kind: 'only_a', a: 3, b: null },
      { kind: 'only_a', a: 4, b: null },
    ]);
    expect(firstDivergence).toEqual({ a: null, b: 2 });
  });

  it('keeps order: crossed actions pair only one way, leftovers a before b', () => {
    const { alignment } = alignRuns(run('X:1 Y:1'), run('Y:1 X:1'));
    expect(alignment).toEqual([
      { kind: 'only_a', a: 1, b: null },
      { kind: 'same', a: 2, b: 1 },
      { kind: 'only_b', a: null, b: 2 },
    ]);
  });

  it('pairs as many equal actions as possible, in the middle of the runs', () => {
    const a = run('S:0 A:1 B:2 C:3 D:4 E:5');
    const b = run('S:0 Q:9 B:2 D:7 A:1 E:5');
    const { alignment, firstDivergence } = alignRuns(a, b);
    expect(alignment.filter((e) => e.kind === 'same' || e.kind === 'changed')).toEqual([
      { kind: 'same', a: 1, b: 1 },
      { kind: 'same', a: 3, b: 3 },
      { kind: 'changed', a: 5, b: 4 },
      { kind: 'same', a: 6, b: 6 },
    ]);
    expect(alignment.filter((e) => e.kind === 'only_a').map((e) => e.a)).toEqual([2, 4]);
    expect(alignment.filter((e) => e.kind === 'only_b').map((e) => e.b)).toEqual([2, 5]);
    expect(firstDivergence).toEqual({ a: 2, b: null });
  });

  it('pairs the same steps whichever run is a', () => {
    const failing = run('check:down restart:ok restart:ok restart:ok');
    const passing = run('check:down fix:ok restart:ok check:up');
    const forward = alignRuns(failing, passing).alignment.filter((e) => e.kind === 'same');
    const backward = alignRuns(passing, failing).alignment.filter((e) => e.kind === 'same');
    expect(forward.map((e) => [e.a, e.b])).toEqual([
      [1, 1],
      [2, 3],
    ]);
    expect(backward.map((e) => [e.b, e.a])).toEqual([
      [1, 1],
      [2, 3],
    ]);
  });

  it('of as many action pairs, takes the one whose outcomes match', () => {
    // restart twice in a; once in b, with the state of a's second restart.
    const { alignment } = alignRuns(
      run('check:down restart:down restart:up'),
      run('check:down restart:up'),
    );
    expect(alignment).toEqual([
      { kind: 'same', a: 1, b: 1 },
      { kind: 'only_a', a: 2, b: null },
      { kind: 'same', a: 3, b: 2 },
    ]);
  });

  it('names steps by the numbers the spans carry, not by position', () => {
    const { alignment } = alignRuns(run('A:1 B:2', 10), run('A:1 B:3', 0));
    expect(alignment).toEqual([
      { kind: 'same', a: 10, b: 0 },
      { kind: 'changed', a: 11, b: 1 },
    ]);
  });

  it('compares result hashes when a run has no state hashes', () => {
    const a = run('A:ok B:ok', 1, 'result');
    const b = run('A:ok B:err', 1, 'result');
    expect(alignRuns(a, b).alignment.map((e) => e.kind)).toEqual(['same', 'changed']);
    // One run with states, the other without: results are what both have.
    const withStates = a.map((s) => ({ ...s, stateHash: 'st' }));
    expect(alignRuns(withStates, b).alignment.map((e) => e.kind)).toEqual(['same', 'changed']);
  });

  it('steps without an action pair with each other; empty runs', () => {
    expect(alignRuns(run('-:1 A:2'), run('-:1 A:3')).alignment).toEqual([
      { kind: 'same', a: 1, b: 1 },
      { kind: 'changed', a: 2, b: 2 },
    ]);
    expect(alignRuns([], run('A B'))).toEqual({
      alignment: [
        { kind: 'only_b', a: null, b: 1 },
        { kind: 'only_b', a: null, b: 2 },
      ],
      firstDivergence: { a: null, b: 1 },
    });
    expect(alignRuns([], [])).toEqual({ alignment: [], firstDivergence: null });
  });

  it('two 10,000-step runs of a few actions, one with a loop in the middle, align fast', () => {
    const actions = ['plan', 'read', 'edit', 'test'];
    const base = Array.from({ length: 10_000 }, (_, k) => `${actions[k % 4]}:${k}`).join(' ');
    const looping = base.split(' ');
    looping.splice(5000, 400, ...Array.from({ length: 400 }, () => 'restart:x'));
    const started = performance.now();
    const { alignment, firstDivergence } = alignRuns(run(base), run(looping.join(' ')));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(firstDivergence).toEqual({ a: 5001, b: null });
    expect(alignment.filter((e) => e.kind === 'same')).toHaveLength(9600);
    expect(alignment.filter((e) => e.kind === 'only_a')).toHaveLength(400);
    expect(alignment.filter((e) => e.kind === 'only_b')).toHaveLength(400);
  });

  it('two 10,000-step runs that differ throughout pair their same steps and the actions between', () => {
    const actions = ['plan', 'read', 'edit', 'test', 'lint'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const spec = () =>
      Array.from({ length: 10_000 }, () => {
        const action = actions[Math.floor(next() * actions.length)]!;
        return `${action}:${Math.floor(next() * 3)}`;
      }).join(' ');
    const a = run(spec());
    const b = run(spec());
    const started = performance.now();
    const { alignment } = alignRuns(a, b);
    expect(performance.now() - started).toBeLessThan(3000);
    // Every step is in the alignment once, in order.
    expect(alignment.filter((e) => e.a !== null).map((e) => e.a)).toEqual(a.map((s) => s.index));
    expect(alignment.filter((e) => e.b !== null).map((e) => e.b)).toEqual(b.map((s) => s.index));
    const paired = alignment.filter((e) => e.kind === 'same' || e.kind === 'changed');
    for (const e of paired) {
      const sa = a[e.a! - 1]!;
      const sb = b[e.b! - 1]!;
      expect(sa.actionHash).toBe(sb.actionHash);
      expect(e.kind === 'same').toBe(sa.stateHash === sb.stateHash);
    }
    // Random runs over five actions share well over half their steps' actions.
    expect(paired.length).toBeGreaterThan(6000);
  });
});

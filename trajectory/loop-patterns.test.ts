import { describe, expect, it } from 'vitest';
import { leastRotation, runPatterns } from './loop-patterns';
import type { PatternStep } from './loop-patterns';

const step = (index: number, action: string, extra: Partial<PatternStep> = {}): PatternStep => ({
  index,
  action,
  actionArgs: '{}',
  actionHash: `h(${action})`,
  signals: [],
  repeatOf: null,
  revisitOf: null,
  stallSince: null,
  ...extra,
});

describe('runPatterns', () => {
  it('a repeat is named by its action hash and agent, labelled with the call', () => {
    const steps = [
      step(1, 'check'),
      step(2, 'restart', { actionArgs: '{"service":"orders"}' }),
      step(3, 'restart', { signals: ['repeat'], repeatOf: 2, actionArgs: '{"service":" orders"}' }),
      step(4, 'restart', { signals: ['repeat'], repeatOf: 3 }),
    ];
    const patterns = runPatterns('ops', steps);
    expect(patterns).toHaveLength(1);
    expect(patterns[0]).toMatchObject({ kind: 'repeat', label: 'restart {"service":"orders"}' });
    expect(runPatterns('ops', steps)[0]!.signature).toBe(patterns[0]!.signature);
    expect(runPatterns('other', steps)[0]!.signature).not.toBe(patterns[0]!.signature);
  });

  it('a cycle entered at different steps is one pattern (A,B,A and B,A,B)', () => {
    // States after 1, 2, 3: s, t, s → step 3 returns to step 1; the cycle is steps 2..3: B, A.
    const aba = [step(1, 'A'), step(2, 'B'), step(3, 'A', { signals: ['revisit'], revisitOf: 1 })];
    // B, A, B: the cycle is steps 2..3: A, B.
    const bab = [step(1, 'B'), step(2, 'A'), step(3, 'B', { signals: ['revisit'], revisitOf: 1 })];
    const [first] = runPatterns('coder', aba);
    const [second] = runPatterns('coder', bab);
    expect(first!.signature).toBe(second!.signature);
    expect(first!.kind).toBe('revisit');
    expect(first!.label).toBe('A → B');
    // A different cycle (A, C) is another pattern.
    const aca = [step(1, 'A'), step(2, 'C'), step(3, 'A', { signals: ['revisit'], revisitOf: 1 })];
    expect(runPatterns('coder', aca)[0]!.signature).not.toBe(first!.signature);
  });

  it('a tool circuit by its tool; a stall by its window’s actions, in any order', () => {
    const circuit = runPatterns('ops', [
      step(1, 'write_bucket'),
      step(2, 'write_bucket'),
      step(3, 'write_bucket', { signals: ['tool_circuit'] }),
    ]);
    expect(circuit).toEqual([
      {
        kind: 'tool_circuit',
        signature: expect.stringMatching(/^tool_circuit:/),
        label: 'write_bucket',
      },
    ]);
    const stallOf = (order: string[]) =>
      runPatterns('filler', [
        step(1, 'start'),
        ...order.map((a, k) =>
          step(k + 2, a, k === order.length - 1 ? { signals: ['stall'], stallSince: 1 } : {}),
        ),
      ]);
    const [x] = stallOf(['edit_a', 'edit_b', 'edit_a']);
    const [y] = stallOf(['edit_b', 'edit_a', 'edit_b']);
    expect(x!.signature).toBe(y!.signature);
    expect(x!.label).toBe('filler: edit_a, edit_b');
  });

  it('each distinct pattern once per run, in order of first appearance', () => {
    const patterns = runPatterns('ops', [
      step(1, 'A'),
      step(2, 'A', { signals: ['repeat'], repeatOf: 1 }),
      step(3, 'B'),
      step(4, 'A', { signals: ['repeat', 'revisit'], repeatOf: 2, revisitOf: 2 }),
    ]);
    expect(patterns.map((p) => p.kind)).toEqual(['repeat', 'revisit']);
  });

  it('the least rotation starts where the sequence sorts first', () => {
    expect(leastRotation(['b', 'a'])).toBe(1);
    expect(leastRotation(['a', 'b'])).toBe(0);
    expect(leastRotation(['c', 'a', 'b'])).toBe(1);
    expect(leastRotation(['x'])).toBe(0);
    expect(leastRotation(['a', 'a'])).toBe(0);
  });
});

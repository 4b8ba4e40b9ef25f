import { createHash } from 'node:crypto';
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

  it('the least rotation is the first start of the rotation that sorts first, for any sequence', () => {
    const brute = (items: readonly string[]) => {
      const rotations = items.map((_, start) => [...items.slice(start), ...items.slice(0, start)]);
      let best = 0;
      for (let start = 1; start < items.length; start++) {
        if (rotations[start]!.join('\u0000') < rotations[best]!.join('\u0000')) best = start;
      }
      return best;
    };
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 12;
    for (let trial = 0; trial < 2000; trial++) {
      const items = Array.from({ length: 1 + (next() % 12) }, () => 'abc'[next() % 3]!);
      expect(leastRotation(items), items.join('')).toBe(brute(items));
    }
  });

  it('finds on a long run exactly the patterns of the plain definition, in the same order', () => {
    // The plain definition, quadratic: each step walks back for the positions it names, and a
    // stall's window is gathered again at every step; signatures from the same material.
    const signature = (kind: string, agent: string, material: readonly string[]) =>
      `${kind}:${createHash('sha256')
        .update(JSON.stringify([kind, agent, ...material]))
        .digest('hex')
        .slice(0, 32)}`;
    const plain = (agent: string, steps: readonly PatternStep[]) => {
      const found = new Map<string, string>();
      const add = (kind: string, material: readonly string[], label: string) => {
        const sig = signature(kind, agent, material);
        const clipped = label.length > 200 ? `${label.slice(0, 199)}…` : label;
        if (!found.has(sig)) found.set(sig, `${kind} ${sig} ${clipped}`);
      };
      const before = (index: number, k: number) => {
        for (let p = k - 1; p >= 0; p--) if (steps[p]!.index === index) return p;
        return -1;
      };
      steps.forEach((s, k) => {
        if (s.signals.includes('repeat') && s.actionHash !== null) {
          const of = s.repeatOf === null ? -1 : before(s.repeatOf, k);
          const first = of < 0 ? s : steps[of]!;
          add('repeat', [s.actionHash], `${first.action} ${first.actionArgs}`);
        }
        if (s.signals.includes('revisit') && s.revisitOf !== null) {
          const from = before(s.revisitOf, k);
          const cycle = from < 0 ? [s] : steps.slice(from + 1, k + 1);
          const rotations = cycle.map((_, r) => [...cycle.slice(r), ...cycle.slice(0, r)]);
          const keyOf = (c: readonly PatternStep[]) => c.map((x) => x.actionHash).join('\u0000');
          const least = rotations.reduce((best, c) => (keyOf(c) < keyOf(best) ? c : best));
          add(
            'revisit',
            least.map((x) => x.actionHash ?? ''),
            least.map((x) => x.action).join(' → '),
          );
        }
        if (s.signals.includes('tool_circuit') && s.action !== null) {
          add('tool_circuit', [s.action], s.action);
        }
        if (s.signals.includes('stall')) {
          const from = s.stallSince === null ? -1 : before(s.stallSince, k);
          const names = new Map<string, string>();
          for (const x of steps.slice(from + 1, k + 1)) names.set(x.actionHash ?? '', x.action!);
          const sorted = [...names.keys()].sort();
          add(
            'stall',
            sorted,
            `${agent}: ${[...new Set(sorted.map((h) => names.get(h)!))].join(', ')}`,
          );
        }
      });
      return [...found.values()];
    };
    let seed = 11;
    // The generator's high bits: its low ones repeat with a short period.
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 12;
    const actions = ['read', 'write', 'test', 'lint'];
    const steps: PatternStep[] = [];
    for (let k = 1; k <= 300; k++) {
      const signals: PatternStep['signals'][number][] = [];
      if (next() % 4 === 0) signals.push('repeat');
      if (next() % 5 === 0) signals.push('revisit');
      if (next() % 3 === 0) signals.push('stall');
      if (next() % 9 === 0) signals.push('tool_circuit');
      const back = () => Math.max(1, k - 1 - (next() % 40));
      steps.push(
        step(k, actions[next() % actions.length]!, {
          // A retried step comes with the number of the one before.
          index: next() % 17 === 0 && k > 1 ? k - 1 : k,
          signals,
          repeatOf: signals.includes('repeat') ? back() : null,
          revisitOf: signals.includes('revisit') ? back() : null,
          // Stalls mostly from the same best, as a real stall is signalled step after step.
          stallSince: signals.includes('stall') ? Math.max(1, k - (k % 50) - 1) : null,
        }),
      );
    }
    const patterns = runPatterns('coder', steps);
    expect(patterns.length).toBeGreaterThan(10);
    expect(new Set(patterns.map((p) => p.kind))).toEqual(
      new Set(['repeat', 'revisit', 'stall', 'tool_circuit']),
    );
    expect(patterns.map((p) => `${p.kind} ${p.signature} ${p.label}`)).toEqual(
      plain('coder', steps),
    );
  });
});

// The compact wire form must lose nothing the aligned rows show: expanded in the browser, it
// gives the rows a direct reading of the two runs' steps and their alignment gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompareStepRecord } from '@/lib/api-types';
import { alignStepPositions } from '@/trajectory/align-runs';
import { SIGNALS } from '@/trajectory/step';
import { buildCompare, expandCompare } from './compare-model';

const step = (k: number, o: Partial<CompareStepRecord> = {}): CompareStepRecord => ({
  index: k + 1,
  action: `act_${k % 3}`,
  actionHash: `hash-of-act_${k % 3}-${'x'.repeat(60)}`,
  stateHash: `state-${k % 2}`,
  resultHash: null,
  progress: null,
  verdict: null,
  errorClass: null,
  costUsd: 0.01,
  signals: [],
  ...o,
});

/** The rows as the view shows them, read straight from the steps and the alignment. */
function direct(a: CompareStepRecord[], b: CompareStepRecord[]) {
  const byState = a.some((s) => s.stateHash !== null) && b.some((s) => s.stateHash !== null);
  const spent = (steps: CompareStepRecord[], k: number) =>
    steps.slice(0, k + 1).reduce((sum, s) => sum + s.costUsd, 0);
  const side = (steps: CompareStepRecord[], k: number | null) => {
    if (k === null) return null;
    const s = steps[k]!;
    const outcome = byState ? s.stateHash : s.resultHash;
    return {
      index: s.index,
      action: s.action,
      stateHash: outcome === null ? null : outcome.slice(0, 8),
      progress: s.progress,
      verdict: s.verdict,
      errorClass: s.errorClass,
      costUsd: s.costUsd,
      spentUsd: spent(steps, k),
      signals: s.signals,
    };
  };
  return alignStepPositions(a, b).map((e, k) => ({
    row: k + 1,
    kind: e.kind,
    a: side(a, e.a),
    b: side(b, e.b),
  }));
}

const shown = (rows: ReturnType<typeof expandCompare>['rows']) =>
  rows.map((r) => ({
    row: r.row,
    kind: r.kind,
    a: r.a && { ...r.a, actionKey: undefined, stateKey: undefined },
    b: r.b && { ...r.b, actionKey: undefined, stateKey: undefined },
  }));
const strip = (rows: ReturnType<typeof direct>) =>
  rows.map((r) => ({
    ...r,
    a: r.a && { ...r.a, actionKey: undefined, stateKey: undefined },
    b: r.b && { ...r.b, actionKey: undefined, stateKey: undefined },
  }));

describe('the compare wire', () => {
  it('carries every shown field of hand-built runs, exceptions included', () => {
    const a = [
      step(0, { index: 3, verdict: 'pass', progress: 4 }),
      step(1, { action: 'renamed_in_this_run', errorClass: 'timeout', signals: ['repeat'] }),
      step(2, { actionHash: null, action: 'no hash', signals: ['revisit', 'tool_circuit'] }),
      step(3, { actionHash: null, action: null, verdict: 'stalled', signals: [...SIGNALS] }),
    ];
    const b = [step(0), step(5, { index: 9, stateHash: 'other', costUsd: 1 / 3 }), step(1)];
    const wire = buildCompare(a, b, alignStepPositions(a, b));
    const view = expandCompare(JSON.parse(JSON.stringify(wire)));
    expect(shown(view.rows)).toEqual(strip(direct(a, b)));
    expect(view.rows.map((r) => r.kind)).toContain('only_a');
    expect(view.firstSignalRow.a).toBe(view.rows.findIndex((r) => r.a?.index === 2) + 1);
    // The usual is not sent: no verdict or error class on most steps, names from the legend
    // (act_1's hash took A's name for it first, so B's own name for it is an exception).
    expect(wire.b.verdict).toEqual([]);
    expect(wire.b.action).toEqual([[2, 'act_1']]);
    expect(wire.a.index).toEqual([[0, 3]]);
  });

  it('round-trips any pair of runs', () => {
    const record = fc.record({
      action: fc.constantFrom('x', 'y', 'z', null),
      hashed: fc.boolean(),
      state: fc.constantFrom('s1', 's2', null),
      result: fc.constantFrom('r1', null),
      verdict: fc.constantFrom('pass', 'fail', 'stalled', null),
      errorClass: fc.constantFrom('timeout', null),
      costUsd: fc.constantFrom(0, 0.5, 1 / 7),
      signals: fc.subarray([...SIGNALS]),
      progress: fc.constantFrom(null, 0, 2.5),
      skip: fc.boolean(),
    });
    const run = fc.array(record, { maxLength: 12 }).map((items) => {
      let index = 0;
      return items.map((r) => {
        index += r.skip ? 2 : 1;
        return {
          index,
          action: r.action,
          actionHash: r.hashed && r.action !== null ? `h-${r.action}` : null,
          stateHash: r.state,
          resultHash: r.result,
          progress: r.progress,
          verdict: r.verdict,
          errorClass: r.errorClass,
          costUsd: r.costUsd,
          signals: r.signals,
        } as CompareStepRecord;
      });
    });
    fc.assert(
      fc.property(run, run, (a, b) => {
        const view = expandCompare(buildCompare(a, b, alignStepPositions(a, b)));
        expect(shown(view.rows)).toEqual(strip(direct(a, b)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps two 10,000-step runs well under a megabyte', () => {
    const big = (cycle: number) =>
      Array.from({ length: 10_000 }, (_, k) =>
        step(k, {
          action: `adjust_entry_${k % (cycle + 1)}`,
          actionHash: `${k % (cycle + 1)}-${k % 50}-${'f'.repeat(60)}`,
          stateHash: `view-${k % cycle}-${'e'.repeat(60)}`,
          progress: Math.max(3, 100 - k),
          costUsd: 0.0005,
          signals: k > cycle ? ['revisit'] : [],
        }),
      );
    const a = big(3);
    const b = big(4);
    const bytes = JSON.stringify(buildCompare(a, b, alignStepPositions(a, b))).length;
    expect(bytes).toBeLessThan(400_000);
  });
});

// What the compare view draws: both runs' steps on one alignment. The page builds the compact
// wire form once on the server (hash identities shared by both runs, so one action is one letter
// and colour on both sides); the client expands it into one row per aligned pair.
import type { TrajectoryStepRecord } from '@/lib/api-types';
import type { AlignmentEntry, AlignmentKind } from '@/trajectory/align-runs';
import type { Signal, Verdict } from '@/trajectory/step';
import type { HashLegendEntry } from '../trajectory/types';

export const KINDS: readonly AlignmentKind[] = ['same', 'changed', 'only_a', 'only_b'];

export interface CompareSideWire {
  index: number[];
  action: (string | null)[];
  actionKey: (number | null)[];
  stateKey: (number | null)[];
  progress: (number | null)[];
  verdict: (Verdict | null)[];
  verdictSource: (string | null)[];
  errorClass: (string | null)[];
  costUsd: number[];
  signals: Signal[][];
}

export interface CompareWire {
  actions: HashLegendEntry[];
  states: HashLegendEntry[];
  /** Which hash the outcome column shows: the state's, or the result's where a run has none. */
  stateSource: 'state' | 'result';
  a: CompareSideWire;
  b: CompareSideWire;
  /** Per aligned row: its kind (index into KINDS) and the steps' positions in a and b. */
  kind: number[];
  rowA: (number | null)[];
  rowB: (number | null)[];
}

export interface SideStep {
  index: number;
  action: string | null;
  actionKey: number | null;
  stateKey: number | null;
  stateHash: string | null;
  progress: number | null;
  verdict: Verdict | null;
  verdictSource: string | null;
  errorClass: string | null;
  costUsd: number;
  /** Spend of this run up to and including this step. */
  spentUsd: number;
  signals: Signal[];
}

export interface AlignedRow {
  /** 1.. in alignment order. */
  row: number;
  kind: AlignmentKind;
  a: SideStep | null;
  b: SideStep | null;
}

export interface CompareView {
  rows: AlignedRow[];
  actions: HashLegendEntry[];
  states: HashLegendEntry[];
  stateSource: CompareWire['stateSource'];
  /** The first row that is not `same`, and each run's first row with a loop signal. */
  firstDivergenceRow: number | null;
  firstSignalRow: { a: number | null; b: number | null };
}

const SHORT = 8;

/** On the server: both runs' steps and their alignment (by position) as the wire form. */
export function buildCompare(
  a: readonly TrajectoryStepRecord[],
  b: readonly TrajectoryStepRecord[],
  alignment: readonly AlignmentEntry[],
): CompareWire {
  const byState = a.some((s) => s.stateHash !== null) && b.some((s) => s.stateHash !== null);
  const actions = new Map<string, HashLegendEntry>();
  const states = new Map<string, HashLegendEntry>();
  const keyOf = (
    legend: Map<string, HashLegendEntry>,
    hash: string | null,
    name: string | null,
  ): number | null => {
    if (hash === null) return null;
    let entry = legend.get(hash);
    if (!entry) {
      entry = { key: legend.size, hash: hash.slice(0, SHORT), name, count: 0 };
      legend.set(hash, entry);
    }
    entry.count++;
    return entry.key;
  };
  const side = (rows: readonly TrajectoryStepRecord[]): CompareSideWire => ({
    index: rows.map((r) => r.index),
    action: rows.map((r) => r.action),
    actionKey: rows.map((r) => keyOf(actions, r.actionHash, r.action)),
    stateKey: rows.map((r) => keyOf(states, byState ? r.stateHash : r.resultHash, null)),
    progress: rows.map((r) => r.progress),
    verdict: rows.map((r) => r.verdict),
    verdictSource: rows.map((r) => r.verdictSource),
    errorClass: rows.map((r) => r.errorClass),
    costUsd: rows.map((r) => r.costUsd),
    signals: rows.map((r) => r.signals),
  });
  return {
    a: side(a),
    b: side(b),
    actions: [...actions.values()],
    states: [...states.values()],
    stateSource: byState ? 'state' : 'result',
    kind: alignment.map((e) => KINDS.indexOf(e.kind)),
    rowA: alignment.map((e) => e.a),
    rowB: alignment.map((e) => e.b),
  };
}

/** In the browser: one row per aligned pair. */
export function expandCompare(wire: CompareWire): CompareView {
  const expandSide = (side: CompareSideWire): SideStep[] => {
    let spent = 0;
    return side.index.map((index, k) => {
      const stateKey = side.stateKey[k] ?? null;
      spent += side.costUsd[k] ?? 0;
      return {
        index,
        action: side.action[k] ?? null,
        actionKey: side.actionKey[k] ?? null,
        stateKey,
        stateHash: stateKey === null ? null : (wire.states[stateKey]?.hash ?? null),
        progress: side.progress[k] ?? null,
        verdict: side.verdict[k] ?? null,
        verdictSource: side.verdictSource[k] ?? null,
        errorClass: side.errorClass[k] ?? null,
        costUsd: side.costUsd[k] ?? 0,
        spentUsd: spent,
        signals: side.signals[k] ?? [],
      };
    });
  };
  const stepsA = expandSide(wire.a);
  const stepsB = expandSide(wire.b);
  let firstDivergenceRow: number | null = null;
  const firstSignalRow: CompareView['firstSignalRow'] = { a: null, b: null };
  const rows = wire.kind.map((kindIndex, k): AlignedRow => {
    const row = k + 1;
    const kind = KINDS[kindIndex] ?? 'same';
    const positionA = wire.rowA[k];
    const positionB = wire.rowB[k];
    const a = positionA === null || positionA === undefined ? null : (stepsA[positionA] ?? null);
    const b = positionB === null || positionB === undefined ? null : (stepsB[positionB] ?? null);
    if (kind !== 'same' && firstDivergenceRow === null) firstDivergenceRow = row;
    if (a && isLoopSignal(a) && firstSignalRow.a === null) firstSignalRow.a = row;
    if (b && isLoopSignal(b) && firstSignalRow.b === null) firstSignalRow.b = row;
    return { row, kind, a, b };
  });
  return {
    rows,
    actions: wire.actions,
    states: wire.states,
    stateSource: wire.stateSource,
    firstDivergenceRow,
    firstSignalRow,
  };
}

/** A repeat, revisit or stall: what a run's first loop signal counts (a tool circuit does not). */
function isLoopSignal(step: SideStep): boolean {
  return step.signals.some((s) => s !== 'tool_circuit');
}

// What the compare view draws: both runs' steps on one alignment. The page builds the compact
// wire form once on the server (hash identities shared by both runs, so one action is one letter
// and colour on both sides); the client expands it into one row per aligned pair.
import type { CompareStepRecord } from '@/lib/api-types';
import type { AlignmentEntry, AlignmentKind } from '@/trajectory/align-runs';
import { SIGNALS } from '@/trajectory/step';
import type { Signal, Verdict } from '@/trajectory/step';
import type { HashLegendEntry } from '../trajectory/types';

export const KINDS: readonly AlignmentKind[] = ['same', 'changed', 'only_a', 'only_b'];

/**
 * One run's steps in the compact form the page sends: only what the aligned rows show, with
 * what is usually empty or implied sent as exceptions ([position, value] pairs), so two
 * 10,000-step runs are a few hundred KiB, not megabytes.
 */
export interface CompareSideWire {
  count: number;
  /** Step numbers that are not their position + 1. */
  index: [number, number][];
  actionKey: (number | null)[];
  /** Action names that are not the name their action hash has in the legend. */
  action: [number, string | null][];
  stateKey: (number | null)[];
  progress: (number | null)[];
  verdict: [number, Verdict][];
  errorClass: [number, string][];
  costUsd: number[];
  /** Each step's signals as bits of SIGNALS (1: repeat, 2: revisit, 4: stall, 8: tool circuit). */
  signals: number[];
}

export interface CompareWire {
  actions: HashLegendEntry[];
  states: HashLegendEntry[];
  /** Which hash the outcome column shows: the state's, or the result's where a run has none. */
  stateSource: 'state' | 'result';
  a: CompareSideWire;
  b: CompareSideWire;
  /**
   * Per aligned row, its kind as one digit (index into KINDS). The steps' positions follow: an
   * alignment takes each run's steps once, in order, so a pair takes the next step of both and
   * an `only_a` / `only_b` row the next of one.
   */
  kinds: string;
}

export interface SideStep {
  index: number;
  action: string | null;
  actionKey: number | null;
  stateKey: number | null;
  stateHash: string | null;
  progress: number | null;
  verdict: Verdict | null;
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

function exceptions<T, V>(
  rows: readonly T[],
  valueOf: (row: T, k: number) => V,
  usual: (row: T, k: number) => V,
): [number, V][] {
  const out: [number, V][] = [];
  rows.forEach((row, k) => {
    const value = valueOf(row, k);
    if (value !== usual(row, k)) out.push([k, value]);
  });
  return out;
}

/** On the server: both runs' steps and their alignment (by position) as the wire form. */
export function buildCompare(
  a: readonly CompareStepRecord[],
  b: readonly CompareStepRecord[],
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
  const legendName = (hash: string | null) =>
    hash === null ? null : (actions.get(hash)?.name ?? null);
  const side = (rows: readonly CompareStepRecord[]): CompareSideWire => {
    const actionKey = rows.map((r) => keyOf(actions, r.actionHash, r.action));
    return {
      count: rows.length,
      index: exceptions(
        rows,
        (r) => r.index,
        (_, k) => k + 1,
      ),
      actionKey,
      action: exceptions(
        rows,
        (r) => r.action,
        (r) => legendName(r.actionHash),
      ),
      stateKey: rows.map((r) => keyOf(states, byState ? r.stateHash : r.resultHash, null)),
      progress: rows.map((r) => r.progress),
      verdict: exceptions(
        rows,
        (r) => r.verdict,
        () => null,
      ).filter((e): e is [number, Verdict] => e[1] !== null),
      errorClass: exceptions(
        rows,
        (r) => r.errorClass,
        () => null,
      ).filter((e): e is [number, string] => e[1] !== null),
      costUsd: rows.map((r) => r.costUsd),
      signals: rows.map((r) =>
        r.signals.reduce((bits, signal) => bits | (1 << SIGNALS.indexOf(signal)), 0),
      ),
    };
  };
  return {
    a: side(a),
    b: side(b),
    actions: [...actions.values()],
    states: [...states.values()],
    stateSource: byState ? 'state' : 'result',
    kinds: alignment.map((e) => KINDS.indexOf(e.kind)).join(''),
  };
}

/** In the browser: one row per aligned pair. */
export function expandCompare(wire: CompareWire): CompareView {
  const expandSide = (side: CompareSideWire): SideStep[] => {
    const index = new Map(side.index);
    const action = new Map(side.action);
    const verdict = new Map(side.verdict);
    const errorClass = new Map(side.errorClass);
    let spent = 0;
    return Array.from({ length: side.count }, (_, k) => {
      const actionKey = side.actionKey[k] ?? null;
      const stateKey = side.stateKey[k] ?? null;
      const costUsd = side.costUsd[k] ?? 0;
      const bits = side.signals[k] ?? 0;
      spent += costUsd;
      return {
        index: index.get(k) ?? k + 1,
        action: action.has(k)
          ? (action.get(k) ?? null)
          : actionKey === null
            ? null
            : (wire.actions[actionKey]?.name ?? null),
        actionKey,
        stateKey,
        stateHash: stateKey === null ? null : (wire.states[stateKey]?.hash ?? null),
        progress: side.progress[k] ?? null,
        verdict: verdict.get(k) ?? null,
        errorClass: errorClass.get(k) ?? null,
        costUsd,
        spentUsd: spent,
        signals: SIGNALS.filter((_, bit) => (bits & (1 << bit)) !== 0),
      };
    });
  };
  const stepsA = expandSide(wire.a);
  const stepsB = expandSide(wire.b);
  let firstDivergenceRow: number | null = null;
  const firstSignalRow: CompareView['firstSignalRow'] = { a: null, b: null };
  let nextA = 0;
  let nextB = 0;
  const rows = Array.from(wire.kinds, (digit, k): AlignedRow => {
    const row = k + 1;
    const kind = KINDS[Number(digit)] ?? 'same';
    const a = kind === 'only_b' ? null : (stepsA[nextA++] ?? null);
    const b = kind === 'only_a' ? null : (stepsB[nextB++] ?? null);
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

// Which loops a run had, each by the signature that names the same loop in every run
// (docs/api.md, "Loop patterns across runs"): a repeat by the repeated action's canonical hash; a
// revisit by its cycle's actions, whichever step the cycle was entered at (the rotation that
// sorts first); a tool circuit by its tool; a stall by the actions of its window. Each names its
// agent too, so one action looping in two agents is two patterns.
import { createHash } from 'node:crypto';
import type { Signal } from './step';

import type { PatternKind } from './pattern-kinds';

export { PATTERN_KINDS } from './pattern-kinds';
export type { PatternKind } from './pattern-kinds';

/** A step as derivation saved it: what the signatures read. */
export interface PatternStep {
  index: number;
  action: string | null;
  actionArgs: string | null;
  actionHash: string | null;
  signals: readonly Signal[];
  /** Step numbers: the repeated step, the step whose state came back, the stall's best. */
  repeatOf: number | null;
  revisitOf: number | null;
  stallSince: number | null;
}

export interface RunPattern {
  kind: PatternKind;
  signature: string;
  label: string;
}

const LABEL_MAX = 200;

/** Every distinct pattern of the run's loops, in the order their first step came. */
export function runPatterns(agent: string | null, steps: readonly PatternStep[]): RunPattern[] {
  const found = new Map<string, RunPattern>();
  const add = (kind: PatternKind, material: readonly string[], label: string) => {
    const signature = signatureOf(kind, agent, material);
    if (!found.has(signature)) found.set(signature, { kind, signature, label: clip(label) });
  };
  // The latest position before `k` of each step number (a step number can come twice, a retry):
  // filled as the walk passes each step, so a run of many thousand steps stays linear.
  const lastPosition = new Map<number, number>();
  const positionBefore = (index: number) => lastPosition.get(index) ?? -1;
  // A stall signalled step after step from the same best: its window grows by one each time, so
  // its actions are gathered once, and a signature is made only when a new action joined.
  let stall: { from: number; through: number; actions: Map<string, string>; named: number } | null =
    null;
  steps.forEach((step, k) => {
    if (step.signals.includes('repeat') && step.actionHash !== null) {
      // Labelled with the call it repeats: the first of the loop, as the agent first sent it.
      const of = step.repeatOf === null ? -1 : positionBefore(step.repeatOf);
      add('repeat', [step.actionHash], describe(of < 0 ? step : steps[of]!));
    }
    if (step.signals.includes('revisit') && step.revisitOf !== null) {
      const from = positionBefore(step.revisitOf);
      // The cycle: the steps after the one whose state came back, up to this one.
      const cycle = from < 0 ? [step] : steps.slice(from + 1, k + 1);
      const hashes = cycle.map((s) => s.actionHash ?? '');
      const start = leastRotation(hashes);
      const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
      add(
        'revisit',
        rotated.map((s) => s.actionHash ?? ''),
        rotated.map((s) => s.action ?? '—').join(' → '),
      );
    }
    if (step.signals.includes('tool_circuit') && step.action !== null) {
      add('tool_circuit', [step.action], step.action);
    }
    if (step.signals.includes('stall')) {
      const from = step.stallSince === null ? -1 : positionBefore(step.stallSince);
      if (stall === null || stall.from !== from) {
        stall = { from, through: from, actions: new Map(), named: 0 };
      }
      for (let p = stall.through + 1; p <= k; p++) {
        const s = steps[p]!;
        stall.actions.set(s.actionHash ?? '', s.action ?? '—');
      }
      stall.through = k;
      if (stall.actions.size > stall.named) {
        stall.named = stall.actions.size;
        const actions = stall.actions;
        const sorted = [...actions.keys()].sort();
        add(
          'stall',
          sorted,
          `${agent ?? '(no agent)'}: ${[...new Set(sorted.map((h) => actions.get(h)!))].join(', ')}`,
        );
      }
    }
    lastPosition.set(step.index, k);
  });
  return [...found.values()];
}

function signatureOf(kind: PatternKind, agent: string | null, material: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([kind, agent, ...material]));
  return `${kind}:${hash.digest('hex').slice(0, 32)}`;
}

function describe(step: PatternStep): string {
  const args = step.actionArgs === null ? '' : ` ${step.actionArgs}`;
  return `${step.action ?? '—'}${args}`;
}

function clip(text: string): string {
  return text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text;
}

/**
 * Where the rotation that sorts first starts (A,B and B,A both start at A): the first such start,
 * in linear time (two candidates compared along their common prefix; the loser skips past it).
 */
export function leastRotation(items: readonly string[]): number {
  const n = items.length;
  let i = 0;
  let j = 1;
  let k = 0;
  while (i < n && j < n && k < n) {
    const a = items[(i + k) % n]!;
    const b = items[(j + k) % n]!;
    if (a === b) {
      k++;
      continue;
    }
    if (a > b) i += k + 1;
    else j += k + 1;
    if (i === j) j++;
    k = 0;
  }
  return Math.min(i, j);
}

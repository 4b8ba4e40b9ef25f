// Pure helpers of the trajectory view: hash identities (letter and colour in order of first
// appearance), the compact steps the page ships, and step numbers to positions.
import type {
  HashLegendEntry,
  LaneStep,
  Trajectory,
  TrajectoryStepInput,
  TrajectoryWire,
} from './types';

/** 0 → A, 25 → Z, 26 → AA, 27 → AB … (bijective base 26). */
export function letterFor(key: number): string {
  let n = key + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** A hue per identity: the golden angle keeps neighbours (A, B, C…) far apart on the wheel. */
export function hueFor(key: number): number {
  return Math.round((key * 137.508 + 210) % 360);
}

export function solidColor(key: number): string {
  return `hsl(${hueFor(key)} 62% 52%)`;
}

export function tintColor(key: number): string {
  return `hsl(${hueFor(key)} 70% 50% / 0.22)`;
}

const SHORT = 8;

/** On the server: the read model's rows as the compact wire form the page ships. */
export function buildTrajectory(rows: readonly TrajectoryStepInput[]): TrajectoryWire {
  const hasState = rows.some((r) => r.stateHash !== null);
  const hasResult = rows.some((r) => r.resultHash !== null);
  const stateSource = hasState ? 'state' : hasResult ? 'result' : 'none';
  const actions = new Keyer();
  const states = new Keyer();
  const column = <T>(pick: (r: TrajectoryStepInput) => T): T[] => rows.map(pick);
  const actionKey = column((r) => actions.key(r.actionHash, r.action));
  const stateKey = column((r) =>
    states.key(
      stateSource === 'state' ? r.stateHash : stateSource === 'result' ? r.resultHash : null,
      null,
    ),
  );
  return {
    actions: actions.legend(),
    states: states.legend(),
    stateSource,
    index: column((r) => r.index),
    durationMs: column((r) =>
      r.durationMs === null ? null : Math.round(r.durationMs * 1000) / 1000,
    ),
    actionKey,
    stateKey,
    progress: column((r) => r.progress),
    verdict: column((r) => r.verdict),
    verdictSource: column((r) => r.verdictSource),
    errorClass: column((r) => r.errorClass),
    costUsd: column((r) => r.costUsd),
    inputTokens: column((r) => r.inputTokens),
    outputTokens: column((r) => r.outputTokens),
    signals: column((r) => r.signals),
    repeatOf: column((r) => r.repeatOf),
    revisitOf: column((r) => r.revisitOf),
    revisitCycle: column((r) => r.revisitCycle),
    stallSince: column((r) => r.stallSince),
  };
}

/** In the browser: the wire form as one LaneStep per step, with step numbers as positions too. */
export function expandTrajectory(wire: TrajectoryWire): Trajectory {
  const n = wire.index.length;
  const ordinalsByIndex = new Map<number, number[]>();
  wire.index.forEach((index, k) => {
    const list = ordinalsByIndex.get(index) ?? [];
    list.push(k + 1);
    ordinalsByIndex.set(index, list);
  });
  /** The latest position before `ordinal` that carries step number `index`. */
  const positionOf = (index: number | null, ordinal: number): number | null => {
    if (index === null) return null;
    let found: number | null = null;
    for (const o of ordinalsByIndex.get(index) ?? []) if (o < ordinal) found = o;
    return found;
  };
  const steps: LaneStep[] = new Array<LaneStep>(n);
  for (let k = 0; k < n; k++) {
    const ordinal = k + 1;
    const actionKey = wire.actionKey[k] ?? null;
    const stateKey = wire.stateKey[k] ?? null;
    const action = actionKey === null ? null : wire.actions[actionKey];
    const inputTokens = wire.inputTokens[k] ?? 0;
    const outputTokens = wire.outputTokens[k] ?? 0;
    const repeatOf = wire.repeatOf[k] ?? null;
    const revisitOf = wire.revisitOf[k] ?? null;
    steps[k] = {
      ordinal,
      index: wire.index[k] ?? ordinal,
      durationMs: wire.durationMs[k] ?? null,
      action: action?.name ?? null,
      actionHash: action?.hash ?? null,
      actionKey,
      stateHash: stateKey === null ? null : (wire.states[stateKey]?.hash ?? null),
      stateKey,
      progress: wire.progress[k] ?? null,
      verdict: wire.verdict[k] ?? null,
      verdictSource: wire.verdictSource[k] ?? null,
      errorClass: wire.errorClass[k] ?? null,
      costUsd: wire.costUsd[k] ?? 0,
      tokens: inputTokens + outputTokens,
      inputTokens,
      outputTokens,
      signals: wire.signals[k] ?? [],
      repeatOf,
      revisitOf,
      revisitCycle: wire.revisitCycle[k] ?? null,
      repeatFrom: positionOf(repeatOf, ordinal),
      revisitFrom: positionOf(revisitOf, ordinal),
      stallFrom: positionOf(wire.stallSince[k] ?? null, ordinal),
    };
  }
  return { steps, actions: wire.actions, states: wire.states, stateSource: wire.stateSource };
}

class Keyer {
  private readonly keys = new Map<string, HashLegendEntry>();

  key(hash: string | null, name: string | null): number | null {
    if (hash === null) return null;
    let entry = this.keys.get(hash);
    if (!entry) {
      entry = { key: this.keys.size, hash: hash.slice(0, SHORT), name, count: 0 };
      this.keys.set(hash, entry);
    }
    entry.count++;
    return entry.key;
  }

  legend(): HashLegendEntry[] {
    return [...this.keys.values()];
  }
}

/** The sequence of letters a lane reads, e.g. "A B A B", cut after `limit` steps. */
export function letterSequence(keys: (number | null)[], limit = 60): string {
  const shown = keys.slice(0, limit).map((k) => (k === null ? '·' : letterFor(k)));
  return shown.join(' ') + (keys.length > limit ? ' …' : '');
}

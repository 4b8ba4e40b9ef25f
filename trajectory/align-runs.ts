// Two runs' trajectories side by side (docs/api.md, "Compare two runs"): steps paired by
// canonical action hash, order kept, as many pairs as possible; a pair is `same` when the
// outcomes match too, `changed` when only the action does.
import { bestPairing, EXACT_PAIRING_CELLS } from './best-pairing';
import { longestCommonSubsequence } from './lcs';

export interface DiffStep {
  /** The step number the spans carry. */
  index: number;
  actionHash: string | null;
  stateHash: string | null;
  resultHash: string | null;
}

export type AlignmentKind = 'same' | 'changed' | 'only_a' | 'only_b';

export interface AlignmentEntry {
  kind: AlignmentKind;
  a: number | null;
  b: number | null;
}

export interface RunAlignment {
  alignment: AlignmentEntry[];
  firstDivergence: { a: number | null; b: number | null } | null;
}

/**
 * Steps in run order. Steps without an action hash pair with each other (the same "no action
 * named"). Outcomes are state hashes when both runs have any, else result hashes (the state lane
 * stands in the same way, docs/conventions.md).
 */
export function alignRuns(a: readonly DiffStep[], b: readonly DiffStep[]): RunAlignment {
  const alignment = alignStepPositions(a, b).map((entry) => ({
    kind: entry.kind,
    a: entry.a === null ? null : a[entry.a]!.index,
    b: entry.b === null ? null : b[entry.b]!.index,
  }));
  const first = alignment.find((entry) => entry.kind !== 'same');
  return {
    alignment,
    firstDivergence: first ? { a: first.a, b: first.b } : null,
  };
}

/** The same alignment by positions in the two arrays (0-based), for views that index steps. */
export function alignStepPositions(
  a: readonly DiffStep[],
  b: readonly DiffStep[],
): AlignmentEntry[] {
  const byState = a.some((s) => s.stateHash !== null) && b.some((s) => s.stateHash !== null);
  const symbols = new Map<string | null, number>();
  const symbolOf = (hash: string | null) => {
    let id = symbols.get(hash);
    if (id === undefined) {
      id = symbols.size;
      symbols.set(hash, id);
    }
    return id;
  };
  const both = new Map<string, number>();
  const encode = (steps: readonly DiffStep[]): Encoded => {
    const action = Int32Array.from(steps, (s) => symbolOf(s.actionHash));
    const outcome = Int32Array.from(steps, (s) => symbolOf(byState ? s.stateHash : s.resultHash));
    const whole = Int32Array.from(action, (act, k) => {
      const key = `${act} ${outcome[k]}`;
      let id = both.get(key);
      if (id === undefined) {
        id = both.size;
        both.set(key, id);
      }
      return id;
    });
    return { action, outcome, whole };
  };
  const x = encode(a);
  const y = encode(b);
  const pairs: [number, number][] = [];
  pairSteps(x, y, 0, a.length, 0, b.length, pairs);

  const alignment: AlignmentEntry[] = [];
  let i = 0;
  let j = 0;
  const leftovers = (untilA: number, untilB: number) => {
    for (; i < untilA; i++) alignment.push({ kind: 'only_a', a: i, b: null });
    for (; j < untilB; j++) alignment.push({ kind: 'only_b', a: null, b: j });
  };
  for (const [pi, pj] of pairs) {
    leftovers(pi, pj);
    alignment.push({
      kind: x.outcome[pi] === y.outcome[pj] ? 'same' : 'changed',
      a: pi,
      b: pj,
    });
    i = pi + 1;
    j = pj + 1;
  }
  leftovers(a.length, b.length);
  return alignment;
}

interface Encoded {
  action: Int32Array;
  outcome: Int32Array;
  /** Action and outcome together: equal only for steps that would pair as `same`. */
  whole: Int32Array;
}

/**
 * Pairs of x[fromX..toX) and y[fromY..toY), appended in order. Steps equal in action and outcome
 * at either end pair with each other (no pairing does better). A middle small enough gets the
 * exact pairing: the most equal actions, and of those the most equal outcomes. A larger one (two
 * 10,000-step runs that differ throughout: 100M cells) first pairs the steps that are the same
 * in action and outcome (a bit-parallel LCS, milliseconds) and pairs the gaps between them the
 * same way; where no step is the same, the LCS of the actions alone.
 */
function pairSteps(
  x: Encoded,
  y: Encoded,
  fromX: number,
  toX: number,
  fromY: number,
  toY: number,
  out: [number, number][],
): void {
  while (fromX < toX && fromY < toY && x.whole[fromX] === y.whole[fromY]) {
    out.push([fromX++, fromY++]);
  }
  const tail: [number, number][] = [];
  while (toX > fromX && toY > fromY && x.whole[toX - 1] === y.whole[toY - 1]) {
    tail.push([--toX, --toY]);
  }
  const n = toX - fromX;
  const m = toY - fromY;
  if (n > 0 && m > 0) {
    if (n * m <= EXACT_PAIRING_CELLS) {
      const found = bestPairing(
        x.action.subarray(fromX, toX),
        x.outcome.subarray(fromX, toX),
        y.action.subarray(fromY, toY),
        y.outcome.subarray(fromY, toY),
      );
      for (const [i, j] of found) out.push([i + fromX, j + fromY]);
    } else {
      const anchors = longestCommonSubsequence(
        x.whole.subarray(fromX, toX),
        y.whole.subarray(fromY, toY),
      );
      if (anchors.length === 0) {
        const found = longestCommonSubsequence(
          x.action.subarray(fromX, toX),
          y.action.subarray(fromY, toY),
        );
        for (const [i, j] of found) out.push([i + fromX, j + fromY]);
      } else {
        let gapX = fromX;
        let gapY = fromY;
        for (const [i, j] of anchors) {
          pairSteps(x, y, gapX, i + fromX, gapY, j + fromY, out);
          out.push([i + fromX, j + fromY]);
          gapX = i + fromX + 1;
          gapY = j + fromY + 1;
        }
        pairSteps(x, y, gapX, toX, gapY, toY, out);
      }
    }
  }
  for (let k = tail.length - 1; k >= 0; k--) out.push(tail[k]!);
}

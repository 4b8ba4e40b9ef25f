// The exact pairing of two short step sequences: as many pairs of equal actions as possible and,
// among those, as many with equal outcomes as possible. An O(n·m) table (a direction per cell,
// two bits each), so align-runs.ts uses it only where n·m is small.

/** Cells past which align-runs.ts anchors on the bit-parallel LCS first (about 40 ms here). */
export const EXACT_PAIRING_CELLS = 1 << 22;

const SKIP_X = 1;
const SKIP_Y = 2;
const PAIR = 3;

/**
 * Pairs [i, j] increasing in both, x actions equal; outcome equality only breaks ties. Walked
 * from the start, taking a pair where it is on a best path; where passing either step by loses
 * nothing, the one that cannot pair any more goes first (x's, if neither can), so the same two
 * runs pair the same steps whichever is a.
 */
export function bestPairing(
  actionX: ArrayLike<number>,
  outcomeX: ArrayLike<number>,
  actionY: ArrayLike<number>,
  outcomeY: ArrayLike<number>,
): [number, number][] {
  const n = actionX.length;
  const m = actionY.length;
  if (n === 0 || m === 0) return [];
  // A pair outweighs every tie-break together: at most min(n, m) outcomes can match.
  const pairWeight = Math.min(n, m) + 1;
  let below = new Float64Array(m + 1); // row i + 1: best of x[i+1..] with y[j..]
  let row = new Float64Array(m + 1);
  const directions = new Uint8Array((n * m + 3) >>> 2);
  const lastInX = lastPositions(actionX);
  const lastInY = lastPositions(actionY);
  for (let i = n - 1; i >= 0; i--) {
    row[m] = 0;
    const ax = actionX[i];
    const ox = outcomeX[i];
    const xPairsUntil = lastInY.get(ax!) ?? -1;
    for (let j = m - 1; j >= 0; j--) {
      let best = -1;
      let direction = SKIP_X;
      if (ax === actionY[j]) {
        best = below[j + 1]! + pairWeight + (ox === outcomeY[j] ? 1 : 0);
        direction = PAIR;
      }
      const skipY = row[j + 1]!;
      const skipX = below[j]!;
      if (skipY > best || skipX > best) {
        if (skipY > skipX) direction = SKIP_Y;
        else if (skipX > skipY) direction = SKIP_X;
        // As good either way: pass by the step that cannot pair any more.
        else if (xPairsUntil < j) direction = SKIP_X;
        else if ((lastInX.get(actionY[j]!) ?? -1) < i) direction = SKIP_Y;
        else direction = SKIP_X;
        best = Math.max(skipX, skipY);
      }
      row[j] = best;
      const cell = i * m + j;
      directions[cell >>> 2]! |= direction << ((cell & 3) << 1);
    }
    [below, row] = [row, below];
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const cell = i * m + j;
    const direction = (directions[cell >>> 2]! >>> ((cell & 3) << 1)) & 3;
    if (direction === PAIR) pairs.push([i++, j++]);
    else if (direction === SKIP_Y) j++;
    else i++;
  }
  return pairs;
}

/** Each symbol's last position. */
function lastPositions(values: ArrayLike<number>): Map<number, number> {
  const last = new Map<number, number>();
  for (let k = 0; k < values.length; k++) last.set(values[k]!, k);
  return last;
}

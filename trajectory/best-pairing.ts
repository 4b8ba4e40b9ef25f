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
 * from the start, taking a pair where it is on a best path, else passing y's step by while that
 * loses nothing, so x's steps pair as early as they can.
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
  for (let i = n - 1; i >= 0; i--) {
    row[m] = 0;
    const ax = actionX[i];
    const ox = outcomeX[i];
    for (let j = m - 1; j >= 0; j--) {
      let best = -1;
      let direction = SKIP_X;
      if (ax === actionY[j]) {
        best = below[j + 1]! + pairWeight + (ox === outcomeY[j] ? 1 : 0);
        direction = PAIR;
      }
      if (row[j + 1]! > best) {
        best = row[j + 1]!;
        direction = SKIP_Y;
      }
      if (below[j]! > best) {
        best = below[j]!;
        direction = SKIP_X;
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

// A longest common subsequence of two integer sequences, as the pairs of positions it matches.
//
// The table of LCS lengths is computed a row at a time as bit vectors (one bit per position of
// `y`, 32 to a word: Allison–Dix / Hyyrö), so two 10,000-long sequences take 10,000 × 313 word
// operations instead of 100M cells, whatever their content: unlike Myers or Hunt–Szymanski, the
// time does not grow with the differences or with how often a symbol recurs (agent loops repeat
// one action thousands of times). The rows are kept for the traceback while they fit in
// ROW_BUDGET_WORDS; past that, Hirschberg's split halves the problem with two row passes.
const ROW_BUDGET_WORDS = 1 << 23; // 32 MiB of rows

/** Pairs [i, j] with x[i] === y[j], increasing in both, as many as possible; earliest first where
 * several subsequences are as long. */
export function longestCommonSubsequence(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  budgetWords = ROW_BUDGET_WORDS,
): [number, number][] {
  const pairs: [number, number][] = [];
  let start = 0;
  const n = x.length;
  const m = y.length;
  while (start < n && start < m && x[start] === y[start]) {
    pairs.push([start, start]);
    start++;
  }
  // No suffix is stripped the same way: it would pair the latest equal steps, not the earliest.
  if (n > start && m > start) {
    alignRange(toArray(x, start, n), toArray(y, start, m), start, start, budgetWords, pairs);
  }
  return pairs;
}

function toArray(source: ArrayLike<number>, from: number, to: number): Int32Array {
  const out = new Int32Array(to - from);
  for (let k = from; k < to; k++) out[k - from] = source[k]!;
  return out;
}

function alignRange(
  x: Int32Array,
  y: Int32Array,
  offsetX: number,
  offsetY: number,
  budgetWords: number,
  out: [number, number][],
): void {
  const n = x.length;
  const m = y.length;
  if (n === 0 || m === 0) return;
  const words = (m + 31) >>> 5;
  if ((n + 1) * words <= budgetWords || n === 1) {
    traceback(x, y, offsetX, offsetY, out);
    return;
  }
  const mid = n >>> 1;
  const forward = prefixLengths(x.subarray(0, mid), y);
  const backward = prefixLengths(x.slice(mid).reverse(), y.slice().reverse());
  let split = 0;
  let best = -1;
  for (let j = 0; j <= m; j++) {
    const total = forward[j]! + backward[m - j]!;
    if (total > best) {
      best = total;
      split = j;
    }
  }
  alignRange(x.subarray(0, mid), y.subarray(0, split), offsetX, offsetY, budgetWords, out);
  alignRange(x.subarray(mid), y.subarray(split), offsetX + mid, offsetY + split, budgetWords, out);
}

/** For each symbol of y, the bit vector of the positions where y has it. */
function matchMasks(y: Int32Array, words: number): Map<number, Int32Array> {
  const masks = new Map<number, Int32Array>();
  for (let j = 0; j < y.length; j++) {
    let mask = masks.get(y[j]!);
    if (!mask) {
      mask = new Int32Array(words);
      masks.set(y[j]!, mask);
    }
    mask[j >>> 5]! |= 1 << (j & 31);
  }
  return masks;
}

/**
 * One row of the table: V' = (V + (V & M)) | (V & ~M), a multi-word addition whose carry runs
 * from position 0 up. A zero bit j in row i means L[i][j+1] = L[i][j] + 1.
 */
function nextRow(v: Int32Array, mask: Int32Array | undefined, out: Int32Array): void {
  if (!mask) {
    out.set(v);
    return;
  }
  let carry = 0;
  for (let w = 0; w < v.length; w++) {
    const vw = v[w]! >>> 0;
    const u = (vw & mask[w]!) >>> 0;
    const sum = vw + u + carry;
    carry = sum > 0xffffffff ? 1 : 0;
    out[w] = (sum >>> 0) | (vw & ~mask[w]!);
  }
}

/** Row 0, all ones: bits past the end of y stay 1, so they never count as matched. */
function emptyRow(words: number): Int32Array {
  return new Int32Array(words).fill(-1);
}

/** L[n][j] for j = 0..m: the LCS length of all of x with each prefix of y. */
function prefixLengths(x: Int32Array, y: Int32Array): Int32Array {
  const m = y.length;
  const words = (m + 31) >>> 5;
  const masks = matchMasks(y, words);
  let v: Int32Array = emptyRow(words);
  let next: Int32Array = new Int32Array(words);
  for (let i = 0; i < x.length; i++) {
    nextRow(v, masks.get(x[i]!), next);
    [v, next] = [next, v];
  }
  const lengths = new Int32Array(m + 1);
  for (let j = 0; j < m; j++) {
    lengths[j + 1] = lengths[j]! + ((v[j >>> 5]! >>> (j & 31)) & 1 ? 0 : 1);
  }
  return lengths;
}

function zerosBelow(rows: Int32Array, row: number, words: number, j: number): number {
  let count = 0;
  const base = row * words;
  const full = j >>> 5;
  for (let w = 0; w < full; w++) count += 32 - popcount(rows[base + w]!);
  const rest = j & 31;
  if (rest > 0) {
    const partial = rows[base + full]! | ~((1 << rest) - 1);
    count += 32 - popcount(partial);
  }
  return count;
}

function popcount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Every row kept, then walked back from the end. The rows are of both sequences reversed, so the
 * walk goes through the originals from their start, taking every match it meets (a match is
 * always on some longest path) and otherwise passing y's step by while that loses nothing.
 */
function traceback(
  forwardX: Int32Array,
  forwardY: Int32Array,
  offsetX: number,
  offsetY: number,
  out: [number, number][],
): void {
  const x = forwardX.slice().reverse();
  const y = forwardY.slice().reverse();
  const n = x.length;
  const m = y.length;
  const words = (m + 31) >>> 5;
  const masks = matchMasks(y, words);
  const rows = new Int32Array((n + 1) * words);
  rows.set(emptyRow(words), 0);
  for (let i = 0; i < n; i++) {
    nextRow(
      rows.subarray(i * words, (i + 1) * words),
      masks.get(x[i]!),
      rows.subarray((i + 1) * words, (i + 2) * words),
    );
  }
  const found: [number, number][] = [];
  let i = n;
  let j = m;
  let length = zerosBelow(rows, n, words, m);
  while (i > 0 && j > 0 && length > 0) {
    if (x[i - 1] === y[j - 1]) {
      found.push([n - i, m - j]);
      i--;
      j--;
      length--;
    } else if ((rows[i * words + ((j - 1) >>> 5)]! >>> ((j - 1) & 31)) & 1) {
      // L[i][j-1] = L[i][j]: pass y's step by, so x's steps pair as early as they can.
      j--;
    } else {
      i--;
    }
  }
  for (const [a, b] of found) out.push([a + offsetX, b + offsetY]);
}

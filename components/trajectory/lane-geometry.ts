// Where everything in the lanes goes, for a given width: computed once per (steps, width), so a
// 10,000-step run is a few hundred SVG elements. Above ~1 step per 2 px, steps share cells
// (the first step of each cell stands for it) and arcs and marks are kept once per pixel.
import { letterFor } from './lane-model';
import type { LaneStep } from './types';

export const GUTTER = 140;
const RIGHT = 20;
export const ROWS = {
  axis: { y: 0, h: 20 },
  action: { y: 24, h: 26 },
  arcs: { y: 54, h: 44 },
  state: { y: 98, h: 26 },
  progress: { y: 136, h: 60 },
  spend: { y: 208, h: 60 },
  verdicts: { y: 280, h: 48 },
} as const;
export const LANES_HEIGHT = 336;
export const VERDICT_SOURCES = ['environment', 'judge', 'self'] as const;
const MAX_ARCS = 400;
const LETTER_MIN_CELL = 14;

export interface Cell {
  x: number;
  w: number;
  key: number | null;
  letter: string | null;
  ordinal: number;
}

export interface Geometry {
  width: number;
  plotX: number;
  plotW: number;
  cellW: number;
  /** Steps per drawn cell (1 unless downsampled). */
  stride: number;
  showLetters: boolean;
  actionCells: Cell[];
  stateCells: Cell[];
  marks: { x: number; kind: 'repeat' | 'circuit'; ordinal: number }[];
  /** `wide` arcs span enough pixels to carry an arrowhead. */
  arcs: { d: string; ordinal: number; wide: boolean }[];
  progressPath: string | null;
  progressRange: { min: number; max: number } | null;
  /** The progress axis: values at the top and the bottom of the lane (higher values up). */
  progressTicks: { y: number; value: number }[];
  stalls: { x: number; w: number }[];
  spendArea: string;
  wastedArea: string | null;
  tokensPath: string;
  firstSignal: { x: number; ordinal: number } | null;
  verdicts: { x: number; row: number; verdict: string; ordinal: number }[];
  ticks: { x: number; label: string }[];
}

export function laneGeometry(
  steps: readonly LaneStep[],
  width: number,
  options: { progressDirection: 'down' | 'up'; wasted: boolean },
): Geometry {
  const n = Math.max(1, steps.length);
  const plotX = GUTTER;
  const plotW = Math.max(40, width - GUTTER - RIGHT);
  const cellW = plotW / n;
  const stride = cellW >= 2 ? 1 : Math.ceil(2 / cellW);
  const showLetters = cellW >= LETTER_MIN_CELL;
  const x = (ordinal: number) => plotX + (ordinal - 0.5) * cellW;
  const samples = sample(steps, stride);

  const cells = (keyOf: (s: LaneStep) => number | null): Cell[] => {
    const out: Cell[] = [];
    for (const s of samples) {
      const key = keyOf(s);
      const left = plotX + (s.ordinal - 1) * cellW;
      const w = Math.min(stride, n - s.ordinal + 1) * cellW;
      const last = out[out.length - 1];
      if (!showLetters && last && last.key === key) {
        last.w = left + w - last.x;
        continue;
      }
      out.push({
        x: left,
        w,
        key,
        letter: key === null ? null : letterFor(key),
        ordinal: s.ordinal,
      });
    }
    return out;
  };

  const marks = once(
    steps.flatMap((s) => [
      ...(s.signals.includes('repeat')
        ? [{ x: x(s.ordinal), kind: 'repeat' as const, ordinal: s.ordinal }]
        : []),
      ...(s.signals.includes('tool_circuit')
        ? [{ x: x(s.ordinal), kind: 'circuit' as const, ordinal: s.ordinal }]
        : []),
    ]),
    (m) => `${m.kind}${Math.round(m.x)}`,
  );

  const base = ROWS.state.y - 2;
  const allArcs = once(
    steps.filter((s) => s.revisitFrom !== null),
    (s) => `${Math.round(x(s.revisitFrom ?? 0))}-${Math.round(x(s.ordinal))}`,
  );
  const arcStep = Math.max(1, Math.ceil(allArcs.length / MAX_ARCS));
  const arcs = allArcs
    .filter((_, k) => k % arcStep === 0)
    .map((s) => {
      const x1 = x(s.revisitFrom ?? s.ordinal);
      const x2 = x(s.ordinal);
      const h = Math.min(ROWS.arcs.h - 6, Math.max(8, (x2 - x1) * 0.45));
      return {
        d: `M${x2} ${base}C${x2} ${base - h} ${x1} ${base - h} ${x1} ${base}`,
        ordinal: s.ordinal,
        wide: x2 - x1 >= 12,
      };
    });

  const progress = progressLine(samples, x);
  const spend = spendLines(steps, stride, x, options.wasted);

  const verdicts = once(
    steps.flatMap((s) => {
      if (!s.verdict) return [];
      const source = VERDICT_SOURCES.indexOf(s.verdictSource as (typeof VERDICT_SOURCES)[number]);
      return [
        { x: x(s.ordinal), row: source < 0 ? 2 : source, verdict: s.verdict, ordinal: s.ordinal },
      ];
    }),
    (v) => `${v.row}:${Math.round(v.x / 2)}:${v.verdict}`,
  );

  return {
    width,
    plotX,
    plotW,
    cellW,
    stride,
    showLetters,
    actionCells: cells((s) => s.actionKey),
    stateCells: cells((s) => s.stateKey),
    marks,
    arcs,
    ...progress,
    stalls: stallWindows(steps, options.progressDirection).map(([from, to]) => ({
      x: plotX + (from - 1) * cellW,
      w: Math.max(2, (to - from + 1) * cellW),
    })),
    ...spend,
    verdicts,
    ticks: ticks(steps, x),
  };
}

function sample(steps: readonly LaneStep[], stride: number): LaneStep[] {
  if (stride === 1) return steps.slice();
  return steps.filter((_, k) => k % stride === 0);
}

function once<T>(items: T[], keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = keyOf(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function progressLine(
  samples: readonly LaneStep[],
  x: (ordinal: number) => number,
): Pick<Geometry, 'progressPath' | 'progressRange' | 'progressTicks'> {
  const known = samples.filter((s) => s.progress !== null && Number.isFinite(s.progress));
  if (known.length === 0) return { progressPath: null, progressRange: null, progressTicks: [] };
  const values = known.map((s) => s.progress as number);
  // A loop, not Math.min(...values): a run of many thousand steps would overflow the stack.
  const min = values.reduce((a, b) => (b < a ? b : a));
  const max = values.reduce((a, b) => (b > a ? b : a));
  const { y: top, h } = ROWS.progress;
  // A plain axis, higher values up, whichever way the metric improves: the label says which way
  // is better in words, so a falling line of failing tests reads as what it is.
  const y = (v: number) => {
    const t = max === min ? 0.5 : (v - min) / (max - min);
    return top + 6 + (1 - t) * (h - 12);
  };
  const d = known.map(
    (s, k) =>
      `${k === 0 ? 'M' : 'L'}${x(s.ordinal).toFixed(1)} ${y(s.progress as number).toFixed(1)}`,
  );
  const progressTicks =
    max === min
      ? [{ y: y(max), value: max }]
      : [
          { y: y(max), value: max },
          { y: y(min), value: min },
        ];
  return { progressPath: d.join(''), progressRange: { min, max }, progressTicks };
}

/** [from, to] positions of each stall: from the best it failed to beat to the next improvement. */
export function stallWindows(
  steps: readonly LaneStep[],
  direction: 'down' | 'up',
): [number, number][] {
  const out: [number, number][] = [];
  for (const s of steps) {
    if (!s.signals.includes('stall') || s.stallFrom === null) continue;
    const best = steps[s.stallFrom - 1]?.progress ?? null;
    let end = s.ordinal;
    for (let k = s.ordinal; k < steps.length; k++) {
      const p = steps[k]?.progress ?? null;
      if (p !== null && best !== null && (direction === 'down' ? p < best : p > best)) break;
      end = k + 1;
    }
    out.push([s.stallFrom, end]);
  }
  return out;
}

function spendLines(
  steps: readonly LaneStep[],
  stride: number,
  x: (ordinal: number) => number,
  wasted: boolean,
): Pick<Geometry, 'spendArea' | 'wastedArea' | 'tokensPath' | 'firstSignal'> {
  const { y: top, h } = ROWS.spend;
  const bottom = top + h;
  let usd = 0;
  let tokens = 0;
  const points: { o: number; usd: number; tokens: number }[] = [];
  for (const s of steps) {
    usd += s.costUsd;
    tokens += s.tokens;
    if (s.ordinal % stride === 0 || s.ordinal === steps.length)
      points.push({ o: s.ordinal, usd, tokens });
  }
  const yUsd = (v: number) => bottom - (usd === 0 ? 0 : (v / usd) * (h - 4));
  const yTok = (v: number) => bottom - (tokens === 0 ? 0 : (v / tokens) * (h - 4));
  const line = (pts: typeof points, y: (p: (typeof points)[number]) => number) =>
    pts.map((p, k) => `${k === 0 ? 'M' : 'L'}${x(p.o).toFixed(1)} ${y(p).toFixed(1)}`).join('');
  const area = (pts: typeof points) =>
    pts.length === 0
      ? ''
      : `${line(pts, (p) => yUsd(p.usd))}L${x(pts[pts.length - 1]!.o).toFixed(1)} ${bottom}L${x(pts[0]!.o).toFixed(1)} ${bottom}Z`;
  const first = steps.find((s) =>
    s.signals.some((g) => g === 'repeat' || g === 'revisit' || g === 'stall'),
  );
  const after = first ? points.filter((p) => p.o >= first.ordinal) : [];
  return {
    spendArea: area(points),
    wastedArea: wasted && after.length > 0 ? area(after) : null,
    tokensPath: tokens === 0 ? '' : line(points, (p) => yTok(p.tokens)),
    firstSignal: first ? { x: x(first.ordinal), ordinal: first.ordinal } : null,
  };
}

function ticks(steps: readonly LaneStep[], x: (ordinal: number) => number): Geometry['ticks'] {
  const n = steps.length;
  if (n === 0) return [];
  const raw = n / 8;
  const pow = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  const every = [1, 2, 5, 10].map((m) => m * pow).find((v) => v >= raw) ?? pow * 10;
  const out: Geometry['ticks'] = [];
  for (let o = 1; o <= n; o += o === 1 && every > 1 ? every - 1 : every) {
    out.push({ x: x(o), label: String(steps[o - 1]?.index ?? o) });
  }
  return out;
}

// Where the compare lanes' rectangles go for a width: one column per aligned row, or one per
// pixel when there are more rows than pixels (the first row of a pixel stands for it, except
// in the kind lane, where any divergence in the pixel shows). Runs of equal cells merge.
import type { AlignmentKind } from '@/trajectory/align-runs';
import type { AlignedRow } from './compare-model';

export const LABEL_W = 86;
const RIGHT = 8;
export const LANE_ROWS = [
  { id: 'aAction', label: 'A action', y: 16, h: 20 },
  { id: 'aState', label: 'A outcome', y: 38, h: 20 },
  { id: 'kind', label: 'match', y: 65, h: 8 },
  { id: 'bAction', label: 'B action', y: 80, h: 20 },
  { id: 'bState', label: 'B outcome', y: 102, h: 20 },
] as const;
export const LANES_HEIGHT = 128;

export type BandCell =
  | { lane: 'kind'; kind: AlignmentKind; x: number; y: number; w: number; h: number }
  | { lane: 'hash'; key: number | null; x: number; y: number; w: number; h: number };

const RANK: Record<AlignmentKind, number> = { same: 0, changed: 1, only_a: 2, only_b: 2 };

export function laneBands(
  rows: readonly AlignedRow[],
  width: number,
): { plotW: number; cells: BandCell[] } {
  const plotW = Math.max(40, width - LABEL_W - RIGHT);
  const columns = Math.min(rows.length, Math.floor(plotW));
  const cells: BandCell[] = [];
  if (columns === 0) return { plotW, cells };
  const columnW = plotW / columns;
  const rowsPer = rows.length / columns;
  const lanes: { lane: (typeof LANE_ROWS)[number]; pick: (r: AlignedRow) => number | null }[] = [
    { lane: LANE_ROWS[0], pick: (r) => r.a?.actionKey ?? null },
    { lane: LANE_ROWS[1], pick: (r) => r.a?.stateKey ?? null },
    { lane: LANE_ROWS[3], pick: (r) => r.b?.actionKey ?? null },
    { lane: LANE_ROWS[4], pick: (r) => r.b?.stateKey ?? null },
  ];
  const gap = (r: AlignedRow, lane: string) =>
    (lane.startsWith('a') ? r.a : r.b) === null ? 'gap' : 'step';
  for (const { lane, pick } of lanes) {
    let open: { key: number | null; from: number; to: number } | null = null;
    const flush = () => {
      if (open) {
        cells.push({
          lane: 'hash',
          key: open.key,
          x: LABEL_W + open.from * columnW,
          y: lane.y,
          w: (open.to - open.from) * columnW - (columnW >= 6 ? 1 : 0),
          h: lane.h,
        });
      }
      open = null;
    };
    for (let c = 0; c < columns; c++) {
      const row = rows[Math.floor(c * rowsPer)]!;
      // A row where this run took no step leaves the lane empty there.
      if (gap(row, lane.id) === 'gap') {
        flush();
        continue;
      }
      const key = pick(row);
      // Wide columns stay apart (one per step); narrow ones merge with an equal neighbour.
      if (open && open.key === key && columnW < 6) open.to = c + 1;
      else {
        flush();
        open = { key, from: c, to: c + 1 };
      }
    }
    flush();
  }
  const kindLane = LANE_ROWS[2];
  let open: { kind: AlignmentKind; from: number; to: number } | null = null;
  const flushKind = () => {
    if (open) {
      cells.push({
        lane: 'kind',
        kind: open.kind,
        x: LABEL_W + open.from * columnW,
        y: kindLane.y,
        w: (open.to - open.from) * columnW,
        h: kindLane.h,
      });
    }
    open = null;
  };
  for (let c = 0; c < columns; c++) {
    let kind: AlignmentKind = 'same';
    const end = Math.max(Math.floor((c + 1) * rowsPer), Math.floor(c * rowsPer) + 1);
    for (let r = Math.floor(c * rowsPer); r < end && r < rows.length; r++) {
      const k = rows[r]!.kind;
      if (RANK[k] > RANK[kind]) kind = k;
    }
    if (open && open.kind === kind) open.to = c + 1;
    else {
      flushKind();
      open = { kind, from: c, to: c + 1 };
    }
  }
  flushKind();
  return { plotW, cells };
}

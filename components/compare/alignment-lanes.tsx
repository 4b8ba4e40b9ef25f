'use client';

import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { MouseEvent } from 'react';
import { solidColor, tintColor } from '../trajectory/lane-model';
import type { AlignedRow } from './compare-model';
import { laneBands, LANE_ROWS, LANES_HEIGHT, LABEL_W } from './lane-bands';
import styles from './compare.module.css';

/**
 * Both runs' action and outcome lanes, one above the other, on the one alignment axis, with the
 * kind of each aligned row between them. A column is a row of the alignment; past one per pixel,
 * columns share pixels, so two 10,000-step runs are a few hundred rectangles.
 */
export function AlignmentLanes({
  rows,
  firstDivergenceRow,
  firstSignalRow,
  selected,
  onSelect,
}: {
  rows: readonly AlignedRow[];
  firstDivergenceRow: number | null;
  firstSignalRow: { a: number | null; b: number | null };
  selected: number | null;
  onSelect: (row: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const bands = useMemo(() => (width === null ? null : laneBands(rows, width)), [rows, width]);
  const xOf = (row: number) => (bands ? LABEL_W + ((row - 0.5) / rows.length) * bands.plotW : 0);
  const at = (event: MouseEvent<SVGRectElement>) => {
    if (!bands) return 1;
    const left = event.currentTarget.getBoundingClientRect().left;
    const row = Math.floor(((event.clientX - left) / bands.plotW) * rows.length) + 1;
    return Math.min(rows.length, Math.max(1, row));
  };
  return (
    <div ref={box} className={styles.lanes} style={{ height: LANES_HEIGHT }}>
      {bands ? (
        <svg
          width={width ?? 0}
          height={LANES_HEIGHT}
          role="img"
          aria-label={`Both runs on one alignment of ${rows.length} rows`}
        >
          {LANE_ROWS.map((lane) => (
            <text
              key={lane.id}
              className={styles.laneLabel}
              x={0}
              y={lane.id === 'kind' ? lane.y + lane.h : lane.y + lane.h - 6}
            >
              {lane.label}
            </text>
          ))}
          {bands.cells.map((cell, k) =>
            cell.lane === 'kind' ? (
              <rect
                key={k}
                className={styles[`kind_${cell.kind}`]}
                x={cell.x}
                y={cell.y}
                width={cell.w}
                height={cell.h}
              />
            ) : (
              <rect
                key={k}
                x={cell.x}
                y={cell.y}
                width={cell.w}
                height={cell.h}
                fill={cell.key === null ? 'var(--bg-inset)' : tintColor(cell.key)}
                stroke={cell.key === null || cell.w < 4 ? 'none' : solidColor(cell.key)}
                strokeWidth={1}
              />
            ),
          )}
          {firstDivergenceRow !== null ? (
            <g className={styles.divergenceMark}>
              <line
                x1={xOf(firstDivergenceRow)}
                x2={xOf(firstDivergenceRow)}
                y1={LANE_ROWS[0]!.y - 4}
                y2={LANES_HEIGHT}
              />
              <text x={Math.min(xOf(firstDivergenceRow) + 4, (width ?? 0) - 110)} y={10}>
                first divergence
              </text>
            </g>
          ) : null}
          {(['a', 'b'] as const).map((side) => {
            const row = firstSignalRow[side];
            if (row === null) return null;
            const lane = LANE_ROWS.find((l) => l.id === `${side}Action`)!;
            return (
              <path
                key={side}
                className={styles.signalMark}
                d={`M ${xOf(row) - 5} ${lane.y - 1} L ${xOf(row) + 5} ${lane.y - 1} L ${xOf(row)} ${lane.y + 7} Z`}
              >
                <title>{`run ${side.toUpperCase()}: first loop signal`}</title>
              </path>
            );
          })}
          {selected !== null ? (
            <line
              className={styles.selectedLine}
              x1={xOf(selected)}
              x2={xOf(selected)}
              y1={LANE_ROWS[0]!.y}
              y2={LANES_HEIGHT}
            />
          ) : null}
          <rect
            className={styles.hit}
            x={LABEL_W}
            y={0}
            width={bands.plotW}
            height={LANES_HEIGHT}
            onClick={(e) => onSelect(at(e))}
          />
        </svg>
      ) : null}
    </div>
  );
}

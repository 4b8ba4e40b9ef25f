'use client';

import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { MouseEvent } from 'react';
import type { ExitCategory } from '@/trajectory/exit-categories';
import { LaneDrawing } from './lane-drawing';
import { laneGeometry, LANES_HEIGHT } from './lane-geometry';
import type { Geometry } from './lane-geometry';
import type { LaneStep } from './types';
import styles from './lanes.module.css';

/** Action, state, progress, spend and verdict lanes on one step axis. Click to select a step. */
export function Lanes({
  steps,
  stateLabel,
  progressDirection,
  exitCategory,
  wastedUsd,
  selected,
  onSelect,
  progressName,
}: {
  steps: readonly LaneStep[];
  stateLabel: string;
  progressDirection: 'down' | 'up';
  progressName: string | null;
  exitCategory: ExitCategory;
  wastedUsd: number;
  selected: number | null;
  onSelect: (ordinal: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  const [hover, setHover] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const geometry = useMemo(
    () =>
      width === null
        ? null
        : laneGeometry(steps, width, { progressDirection, wasted: wastedUsd > 0 }),
    [steps, width, progressDirection, wastedUsd],
  );
  const at = (event: MouseEvent<SVGRectElement>, g: Geometry) => {
    const left = event.currentTarget.getBoundingClientRect().left;
    const o = Math.floor((event.clientX - left) / g.cellW) + 1;
    return Math.min(steps.length, Math.max(1, o));
  };
  return (
    <div ref={box} className={styles.lanes} style={{ height: LANES_HEIGHT }}>
      {geometry ? (
        <>
          <LaneDrawing
            geometry={geometry}
            steps={steps}
            stateLabel={stateLabel}
            exitCategory={exitCategory}
            wastedUsd={wastedUsd}
            progressName={progressName}
            progressDirection={progressDirection}
          />
          <svg
            className={styles.overlay}
            width={geometry.width}
            height={LANES_HEIGHT}
            aria-hidden="true"
          >
            {[hover, selected].map((o, k) =>
              o === null ? null : (
                <line
                  key={k}
                  className={k === 0 ? styles.hoverLine : styles.selectedLine}
                  x1={geometry.plotX + (o - 0.5) * geometry.cellW}
                  x2={geometry.plotX + (o - 0.5) * geometry.cellW}
                  y1={16}
                  y2={LANES_HEIGHT}
                />
              ),
            )}
            {hover !== null ? (
              <text
                className={styles.hoverText}
                x={Math.min(
                  geometry.plotX + (hover - 0.5) * geometry.cellW + 6,
                  geometry.width - 160,
                )}
                y={12}
              >
                {`step ${steps[hover - 1]?.index ?? hover}${steps[hover - 1]?.action ? ` · ${steps[hover - 1]?.action}` : ''}`}
              </text>
            ) : null}
            <rect
              className={styles.hit}
              x={geometry.plotX}
              y={0}
              width={geometry.plotW}
              height={LANES_HEIGHT}
              onMouseMove={(e) => setHover(at(e, geometry))}
              onMouseLeave={() => setHover(null)}
              onClick={(e) => onSelect(at(e, geometry))}
            />
          </svg>
        </>
      ) : null}
    </div>
  );
}

import { memo } from 'react';
import type { ExitCategory } from '@/trajectory/exit-categories';
import { EXIT_CATEGORY_META } from '@/trajectory/exit-categories';
import { categoryColor } from '../theme/category-vars';
import { formatUsd } from '../format';
import { LANES_HEIGHT, ROWS, VERDICT_SOURCES } from './lane-geometry';
import type { Cell, Geometry } from './lane-geometry';
import { solidColor, tintColor } from './lane-model';
import type { LaneStep } from './types';
import styles from './lanes.module.css';

const A11Y_LIMIT = 400;
const SOURCE_LABELS = { environment: 'env', judge: 'judge', self: 'self' } as const;

/** The lanes of a whole run in one SVG, drawn once per width (selection lives in an overlay). */
export const LaneDrawing = memo(function LaneDrawing({
  geometry: g,
  steps,
  stateLabel,
  exitCategory,
  wastedUsd,
  progressName,
  progressDirection,
}: {
  geometry: Geometry;
  steps: readonly LaneStep[];
  stateLabel: string;
  exitCategory: ExitCategory;
  wastedUsd: number;
  /** What the progress metric counts, as the harness named it (`loop.progress.name`). */
  progressName: string | null;
  progressDirection: 'down' | 'up';
}) {
  const described = steps.length <= A11Y_LIMIT && g.stride === 1;
  const end = g.plotX + g.plotW;
  const label = (text: string, y: number, sub?: string) => (
    <text x={8} y={y} className={styles.laneLabel}>
      {text}
      {sub ? (
        <tspan className={styles.laneSub} x={8} dy={13}>
          {sub}
        </tspan>
      ) : null}
    </text>
  );
  return (
    <svg
      className={styles.svg}
      width={g.width}
      height={LANES_HEIGHT}
      role="group"
      aria-label="Trajectory lanes"
    >
      <defs>
        <marker
          id="arc-head"
          viewBox="0 0 8 8"
          refX="4"
          refY="4"
          markerWidth="6"
          markerHeight="6"
          orient="auto-start-reverse"
        >
          <path d="M0 0L8 4L0 8Z" fill="var(--sig-loop)" />
        </marker>
      </defs>
      <g aria-hidden="true" className={styles.axis}>
        {g.ticks.map((t) => (
          <text key={t.x} x={t.x} y={ROWS.axis.y + 13} textAnchor="middle">
            {t.label}
          </text>
        ))}
        <text x={8} y={ROWS.axis.y + 13}>
          step{g.stride > 1 ? ` (1 px ≈ ${Math.round(g.stride / 2)})` : ''}
        </text>
        <rect
          x={end + 4}
          y={ROWS.action.y}
          width={6}
          height={ROWS.state.y + ROWS.state.h - ROWS.action.y}
          fill={categoryColor(exitCategory)}
          rx={2}
        >
          <title>{`Ended: ${EXIT_CATEGORY_META[exitCategory].label}`}</title>
        </rect>
      </g>
      {label('Action', ROWS.action.y + 17)}
      <HashLane
        name="Action lane"
        cells={g.actionCells}
        row={ROWS.action}
        showLetters={g.showLetters}
        described={described}
        describe={(c) =>
          `Step ${steps[c.ordinal - 1]?.index}: action ${c.letter ?? 'none'}${steps[c.ordinal - 1]?.action ? ` (${steps[c.ordinal - 1]?.action})` : ''}`
        }
      />
      <g aria-hidden={described ? undefined : true}>
        {g.marks.map((m) => (
          <path
            key={`${m.kind}${m.ordinal}`}
            d={`M${m.x - 5} ${ROWS.action.y - 6}L${m.x + 5} ${ROWS.action.y - 6}L${m.x} ${ROWS.action.y}Z`}
            fill={m.kind === 'repeat' ? 'var(--sig-loop)' : 'var(--sig-circuit)'}
            role={described ? 'img' : undefined}
            aria-label={
              described
                ? `Step ${steps[m.ordinal - 1]?.index} ${m.kind === 'repeat' ? `repeats step ${steps[m.ordinal - 1]?.repeatOf}` : 'opens the tool circuit'}`
                : undefined
            }
          />
        ))}
      </g>
      <g className={styles.arcs}>
        {g.arcs.map((a) => {
          const s = steps[a.ordinal - 1];
          return (
            <path
              key={a.ordinal}
              d={a.d}
              markerEnd={a.wide ? 'url(#arc-head)' : undefined}
              role="img"
              aria-label={`Step ${s?.index} returns to the state of step ${s?.revisitOf}`}
            />
          );
        })}
      </g>
      {label(stateLabel, ROWS.state.y + 17)}
      <HashLane
        name={`${stateLabel} lane`}
        cells={g.stateCells}
        row={ROWS.state}
        showLetters={g.showLetters}
        described={described}
        describe={(c) => {
          const s = steps[c.ordinal - 1];
          return `Step ${s?.index}: ${stateLabel.toLowerCase()} ${c.letter ?? 'none'}${s?.revisitOf ? `, returns to step ${s.revisitOf}` : ''}`;
        }}
      />
      <g
        role="img"
        aria-label={progressDescription(steps, progressName, progressDirection, g.progressRange)}
      >
        <title>{progressName ?? 'loop.progress'}</title>
        {label(
          shorten(progressName ?? 'loop.progress', 15),
          ROWS.progress.y + 24,
          g.progressRange
            ? `${progressDirection === 'down' ? 'lower' : 'higher'} is better`
            : 'not reported',
        )}
        {g.progressTicks.length > 0 ? (
          <g className={styles.progressAxis}>
            <line
              x1={g.plotX - 3}
              x2={g.plotX - 3}
              y1={ROWS.progress.y + 2}
              y2={ROWS.progress.y + ROWS.progress.h - 2}
            />
            {g.progressTicks.map((t) => (
              <g key={t.y}>
                <line x1={g.plotX - 7} x2={g.plotX - 3} y1={t.y} y2={t.y} />
                <text x={g.plotX - 9} y={t.y + 3.5} textAnchor="end">
                  {fmt(t.value)}
                </text>
              </g>
            ))}
          </g>
        ) : null}
        {g.stalls.map((s) => (
          <rect
            key={s.x}
            x={s.x}
            y={ROWS.progress.y}
            width={s.w}
            height={ROWS.progress.h}
            className={styles.stall}
          />
        ))}
        {g.stalls.length > 0 ? (
          <text x={(g.stalls[0]?.x ?? 0) + 4} y={ROWS.progress.y + 11} className={styles.stallText}>
            stall
          </text>
        ) : null}
        <line
          x1={g.plotX}
          x2={end}
          y1={ROWS.progress.y + ROWS.progress.h}
          y2={ROWS.progress.y + ROWS.progress.h}
          className={styles.baseline}
        />
        {g.progressPath ? <path d={g.progressPath} className={styles.progress} /> : null}
      </g>
      <g aria-hidden="true">
        {label(
          'Spend',
          ROWS.spend.y + 16,
          wastedUsd > 0 ? `${formatUsd(wastedUsd)} wasted` : 'cumulative',
        )}
        <line
          x1={g.plotX}
          x2={end}
          y1={ROWS.spend.y + ROWS.spend.h}
          y2={ROWS.spend.y + ROWS.spend.h}
          className={styles.baseline}
        />
        <path d={g.spendArea} className={styles.spend} />
        {g.wastedArea ? <path d={g.wastedArea} className={styles.wasted} /> : null}
        {g.tokensPath ? <path d={g.tokensPath} className={styles.tokens} /> : null}
      </g>
      <g aria-hidden="true">
        {label('Verdicts', ROWS.verdicts.y + 11)}
        {VERDICT_SOURCES.map((source, row) => (
          <text
            key={source}
            x={g.plotX - 8}
            y={ROWS.verdicts.y + 11 + row * 16}
            textAnchor="end"
            className={styles.laneSub}
          >
            {SOURCE_LABELS[source]}
          </text>
        ))}
        {g.verdicts.map((v) => (
          <VerdictMark
            key={`${v.row}-${v.ordinal}`}
            x={v.x}
            y={ROWS.verdicts.y + 7 + v.row * 16}
            verdict={v.verdict}
          />
        ))}
      </g>
      {g.firstSignal ? (
        <g className={styles.firstSignal} aria-hidden="true">
          <line
            x1={g.firstSignal.x}
            x2={g.firstSignal.x}
            y1={ROWS.action.y - 4}
            y2={ROWS.verdicts.y + ROWS.verdicts.h}
          />
          <text x={g.firstSignal.x + 4} y={ROWS.spend.y + 10}>
            first loop signal
          </text>
        </g>
      ) : null}
    </svg>
  );
});

function HashLane({
  name,
  cells,
  row,
  showLetters,
  described,
  describe,
}: {
  name: string;
  cells: Cell[];
  row: { y: number; h: number };
  showLetters: boolean;
  described: boolean;
  describe: (cell: Cell) => string;
}) {
  return (
    <g
      role={described ? 'list' : undefined}
      aria-label={described ? name : undefined}
      aria-hidden={described ? undefined : true}
    >
      {cells.map((c) => (
        <g
          key={c.ordinal}
          role={described ? 'listitem' : undefined}
          aria-label={described ? describe(c) : undefined}
        >
          <rect
            x={c.x + (showLetters ? 1 : 0)}
            y={row.y}
            width={Math.max(1, c.w - (showLetters ? 2 : 0))}
            height={row.h}
            rx={showLetters ? 3 : 0}
            fill={
              c.key === null
                ? 'var(--bg-inset)'
                : showLetters
                  ? tintColor(c.key)
                  : solidColor(c.key)
            }
            stroke={c.key !== null && showLetters ? solidColor(c.key) : undefined}
          />
          {showLetters && c.letter ? (
            <text
              x={c.x + c.w / 2}
              y={row.y + row.h / 2 + 4.5}
              textAnchor="middle"
              className={styles.letter}
            >
              {c.letter}
            </text>
          ) : null}
        </g>
      ))}
    </g>
  );
}

function VerdictMark({ x, y, verdict }: { x: number; y: number; verdict: string }) {
  if (verdict === 'pass') return <circle cx={x} cy={y} r={4.5} fill="var(--verdict-pass)" />;
  if (verdict === 'fail')
    return <rect x={x - 4} y={y - 4} width={8} height={8} fill="var(--verdict-fail)" />;
  return (
    <path
      d={`M${x} ${y - 5}L${x + 5} ${y}L${x} ${y + 5}L${x - 5} ${y}Z`}
      fill="var(--verdict-stalled)"
    />
  );
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toPrecision(3);
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The lane in words: what it counts, where it started and ended, and which way is better. */
export function progressDescription(
  steps: readonly LaneStep[],
  name: string | null,
  direction: 'down' | 'up',
  range: { min: number; max: number } | null,
): string {
  const metric = name ?? 'loop.progress';
  if (!range) return `Progress (${metric}): not reported`;
  const known = steps.filter((s) => s.progress !== null);
  const first = known[0];
  const last = known[known.length - 1];
  const better = direction === 'down' ? 'lower is better' : 'higher is better';
  return first && last
    ? `Progress (${metric}): ${fmt(first.progress as number)} at step ${first.index} to ${fmt(last.progress as number)} at step ${last.index}, ${better}`
    : `Progress (${metric}), ${better}`;
}

'use client';

import { formatDuration, formatUsd } from '../format';
import { gridStyles as grid, VirtualGrid } from '../view/virtual-grid';
import { HashChip } from './hash-chip';
import { StepSignals } from './step-signals';
import type { LaneStep } from './types';
import styles from './step-list.module.css';

export { LIST_HEIGHT, ROW_HEIGHT } from '../view/virtual-grid';
const COLUMNS = [
  'Step',
  'Action',
  'Hash',
  'State',
  'Progress',
  'Verdict',
  'Spend',
  'Time',
  'Signals',
];

export function stepRowId(ordinal: number): string {
  return `step-row-${ordinal}`;
}

/** One row per step, virtualised: only the rows in view (and a few more) are mounted. */
export function StepList({
  steps,
  selected,
  onSelect,
}: {
  steps: readonly LaneStep[];
  selected: number | null;
  onSelect: (ordinal: number) => void;
}) {
  return (
    <VirtualGrid
      label="Steps"
      count={steps.length}
      columnCount={COLUMNS.length}
      columns={styles.columns}
      header={COLUMNS.map((c) => (
        <span key={c} role="columnheader" className={grid.ellipsis}>
          {c}
        </span>
      ))}
      selected={selected}
      onSelect={onSelect}
      rowId={stepRowId}
      scrollAlign="auto"
      renderRow={({ index, style }) => {
        const step = steps[index];
        if (!step) return null;
        const isSelected = step.ordinal === selected;
        return (
          <div
            key={step.ordinal}
            id={stepRowId(step.ordinal)}
            role="row"
            aria-rowindex={step.ordinal + 1}
            aria-selected={isSelected}
            className={`${grid.row} ${styles.columns}`}
            data-signal={step.signals.length > 0 ? '' : undefined}
            style={style}
            onClick={() => onSelect(step.ordinal)}
          >
            <span role="gridcell" className={`${grid.index} ${styles.stepIndex}`}>
              {step.index}
            </span>
            <span role="gridcell" className={grid.action}>
              <HashChip hashKey={step.actionKey} />
              <span className={grid.ellipsis}>{step.action ?? '—'}</span>
            </span>
            <span role="gridcell" className={grid.hash}>
              {step.actionHash ?? '—'}
            </span>
            <span role="gridcell" className={grid.action}>
              <HashChip hashKey={step.stateKey} />
              <span className={grid.hash}>{step.stateHash ?? '—'}</span>
            </span>
            <span role="gridcell" className={grid.num}>
              {step.progress ?? '—'}
            </span>
            <span role="gridcell" className={grid.ellipsis}>
              {step.verdict ? (
                <span
                  className={grid[`verdict_${step.verdict}`]}
                  title={`${step.verdict}, decided by ${step.verdictSource ?? 'self'}`}
                >
                  {step.verdict}
                  <span className="muted">
                    {' '}
                    ·{' '}
                    {step.verdictSource === 'environment' ? 'env' : (step.verdictSource ?? 'self')}
                  </span>
                </span>
              ) : step.errorClass ? (
                <span className={grid.verdict_fail}>{step.errorClass}</span>
              ) : (
                <span className="muted">—</span>
              )}
            </span>
            <span role="gridcell" className={grid.num}>
              {formatUsd(step.costUsd)}
            </span>
            <span role="gridcell" className={grid.num}>
              {formatDuration(step.durationMs)}
            </span>
            <span role="gridcell">
              <StepSignals step={step} />
            </span>
          </div>
        );
      }}
    />
  );
}

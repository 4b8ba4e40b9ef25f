'use client';

import { formatUsd } from '../format';
import { HashChip } from '../trajectory/hash-chip';
import { gridStyles as grid, VirtualGrid } from '../view/virtual-grid';
import type { AlignedRow, SideStep } from './compare-model';
import styles from './compare.module.css';

export { LIST_HEIGHT, ROW_HEIGHT } from '../view/virtual-grid';
const KIND_LABEL = { same: 'same', changed: 'changed', only_a: 'only A', only_b: 'only B' };
const SIDE_COLUMNS = ['Step', 'action', 'outcome', 'verdict', 'progress', 'spend'];

export function alignedRowId(row: number): string {
  return `aligned-row-${row}`;
}

/** One row per aligned pair, virtualised as the trajectory's step list is. */
export function AlignedRows({
  rows,
  outcomeLabel,
  firstDivergenceRow,
  firstSignalRow,
  selected,
  onSelect,
}: {
  rows: readonly AlignedRow[];
  outcomeLabel: string;
  firstDivergenceRow: number | null;
  firstSignalRow: { a: number | null; b: number | null };
  selected: number | null;
  onSelect: (row: number) => void;
}) {
  // Each side's step column is headed by its letter; the rest say what they hold.
  const sideHeader = (side: string) =>
    SIDE_COLUMNS.map((c) =>
      c === 'Step' ? side : c === 'outcome' ? outcomeLabel.toLowerCase() : c,
    );
  const header = ['match', ...sideHeader('A'), ...sideHeader('B')];
  return (
    <VirtualGrid
      label="Aligned steps"
      count={rows.length}
      columnCount={header.length}
      columns={styles.columns}
      header={header.map((c, k) => (
        <span
          key={k}
          role="columnheader"
          className={k === 1 || k === 7 ? styles.sideHead : grid.ellipsis}
        >
          {c}
        </span>
      ))}
      selected={selected}
      onSelect={onSelect}
      rowId={alignedRowId}
      scrollAlign="center"
      renderRow={({ index, style }) => {
        const row = rows[index];
        if (!row) return null;
        const marks = [
          row.row === firstDivergenceRow ? 'first divergence' : null,
          row.row === firstSignalRow.a ? 'A: first loop signal' : null,
          row.row === firstSignalRow.b ? 'B: first loop signal' : null,
        ].filter((m): m is string => m !== null);
        return (
          <div
            key={row.row}
            id={alignedRowId(row.row)}
            role="row"
            aria-rowindex={row.row + 1}
            aria-selected={row.row === selected}
            data-kind={row.kind}
            data-divergence={row.row === firstDivergenceRow ? '' : undefined}
            className={`${grid.row} ${styles.columns}`}
            style={style}
            title={marks.length > 0 ? marks.join(' · ') : undefined}
            onClick={() => onSelect(row.row)}
          >
            <span role="gridcell" className={styles.kindCell}>
              <span className={styles[`kindTag_${row.kind}`]}>{KIND_LABEL[row.kind]}</span>
              {marks.length > 0 ? (
                <span className={styles.markDot} aria-label={marks.join(', ')} />
              ) : null}
            </span>
            <SideCells step={row.a} signalHere={row.row === firstSignalRow.a} />
            <SideCells step={row.b} signalHere={row.row === firstSignalRow.b} />
          </div>
        );
      }}
    />
  );
}

function SideCells({ step, signalHere }: { step: SideStep | null; signalHere: boolean }) {
  if (!step) {
    return (
      <>
        {SIDE_COLUMNS.map((c) => (
          <span key={c} role="gridcell" className={`muted ${styles.none}`}>
            {c === 'Step' ? '—' : ''}
          </span>
        ))}
      </>
    );
  }
  return (
    <>
      <span
        role="gridcell"
        className={`${grid.index} ${styles.sideIndex}`}
        data-signal={step.signals.length > 0 ? '' : undefined}
        title={signalHere ? 'first loop signal' : step.signals.join(', ') || undefined}
      >
        {step.index}
      </span>
      <span role="gridcell" className={grid.action}>
        <HashChip hashKey={step.actionKey} />
        <span className={grid.ellipsis}>{step.action ?? '—'}</span>
      </span>
      <span role="gridcell" className={grid.action}>
        <HashChip hashKey={step.stateKey} />
        <span className={`${grid.hash} ${styles.clip}`}>{step.stateHash ?? '—'}</span>
      </span>
      <span role="gridcell" className={grid.ellipsis}>
        {step.verdict ? (
          <span className={grid[`verdict_${step.verdict}`]}>{step.verdict}</span>
        ) : step.errorClass ? (
          <span className={grid.verdict_fail}>{step.errorClass}</span>
        ) : (
          <span className="muted">—</span>
        )}
      </span>
      <span role="gridcell" className={grid.num}>
        {step.progress ?? '—'}
      </span>
      <span role="gridcell" className={grid.num} title={`${formatUsd(step.spentUsd)} so far`}>
        {formatUsd(step.costUsd)}
      </span>
    </>
  );
}

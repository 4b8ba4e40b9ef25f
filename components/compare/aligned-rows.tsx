'use client';

import { useEffect, useRef } from 'react';
import type { KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatUsd } from '../format';
import { HashChip } from '../trajectory/hash-chip';
import type { AlignedRow, SideStep } from './compare-model';
import styles from './compare.module.css';

export const ROW_HEIGHT = 30;
export const LIST_HEIGHT = 480;
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
  const viewport = useRef<HTMLDivElement>(null);
  // The virtualizer's functions change identity as it scrolls: this component is not memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => viewport.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
    initialRect: { width: 800, height: LIST_HEIGHT },
    useFlushSync: false,
  });
  useEffect(() => {
    if (selected !== null) virtualizer.scrollToIndex(selected - 1, { align: 'center' });
  }, [selected, virtualizer]);

  const page = Math.max(1, Math.floor(LIST_HEIGHT / ROW_HEIGHT) - 1);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const current = selected ?? 0;
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      j: current + 1,
      ArrowUp: current - 1,
      k: current - 1,
      PageDown: current + page,
      PageUp: current - page,
      Home: 1,
      End: rows.length,
    };
    const next = moves[event.key];
    if (next === undefined || rows.length === 0) return;
    event.preventDefault();
    event.stopPropagation();
    onSelect(Math.min(rows.length, Math.max(1, next)));
  };
  // Each side's step column is headed by its letter; the rest say what they hold.
  const sideHeader = (side: string) =>
    SIDE_COLUMNS.map((c) =>
      c === 'Step' ? side : c === 'outcome' ? outcomeLabel.toLowerCase() : c,
    );
  const header = ['match', ...sideHeader('A'), ...sideHeader('B')];
  return (
    <div
      className={styles.grid}
      role="grid"
      aria-label="Aligned steps"
      aria-rowcount={rows.length + 1}
      aria-colcount={header.length}
      aria-activedescendant={selected !== null ? alignedRowId(selected) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" className={styles.headGroup}>
        <div role="row" aria-rowindex={1} className={`${styles.row} ${styles.head}`}>
          {header.map((c, k) => (
            <span
              key={k}
              role="columnheader"
              className={k === 1 || k === 7 ? styles.sideHead : styles.ellipsis}
            >
              {c}
            </span>
          ))}
        </div>
      </div>
      <div
        ref={viewport}
        className={styles.viewport}
        style={{ height: Math.min(LIST_HEIGHT, Math.max(1, rows.length) * ROW_HEIGHT) }}
        tabIndex={-1}
      >
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
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
                className={styles.row}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
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
          })}
        </div>
      </div>
    </div>
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
        className={styles.index}
        data-signal={step.signals.length > 0 ? '' : undefined}
        title={signalHere ? 'first loop signal' : step.signals.join(', ') || undefined}
      >
        {step.index}
      </span>
      <span role="gridcell" className={styles.action}>
        <HashChip hashKey={step.actionKey} />
        <span className={styles.ellipsis}>{step.action ?? '—'}</span>
      </span>
      <span role="gridcell" className={styles.action}>
        <HashChip hashKey={step.stateKey} />
        <span className={styles.hash}>{step.stateHash ?? '—'}</span>
      </span>
      <span role="gridcell" className={styles.ellipsis}>
        {step.verdict ? (
          <span className={styles[`verdict_${step.verdict}`]}>{step.verdict}</span>
        ) : step.errorClass ? (
          <span className={styles.verdict_fail}>{step.errorClass}</span>
        ) : (
          <span className="muted">—</span>
        )}
      </span>
      <span role="gridcell" className={styles.num}>
        {step.progress ?? '—'}
      </span>
      <span role="gridcell" className={styles.num} title={`${formatUsd(step.spentUsd)} so far`}>
        {formatUsd(step.costUsd)}
      </span>
    </>
  );
}

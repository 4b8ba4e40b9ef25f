'use client';

import { useEffect, useRef } from 'react';
import type { KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatDuration, formatUsd } from '../format';
import { HashChip } from './hash-chip';
import { StepSignals } from './step-signals';
import type { LaneStep } from './types';
import styles from './step-list.module.css';

export const ROW_HEIGHT = 30;
export const LIST_HEIGHT = 480;
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
  const viewport = useRef<HTMLDivElement>(null);
  // The virtualizer's functions change identity as it scrolls: this component is not memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: steps.length,
    getScrollElement: () => viewport.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
    initialRect: { width: 800, height: LIST_HEIGHT },
    useFlushSync: false,
  });
  useEffect(() => {
    if (selected !== null) virtualizer.scrollToIndex(selected - 1, { align: 'auto' });
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
      End: steps.length,
    };
    const next = moves[event.key];
    if (next === undefined || steps.length === 0) return;
    event.preventDefault();
    event.stopPropagation();
    onSelect(Math.min(steps.length, Math.max(1, next)));
  };

  return (
    <div
      className={styles.grid}
      role="grid"
      aria-label="Steps"
      aria-rowcount={steps.length + 1}
      aria-colcount={COLUMNS.length}
      aria-activedescendant={selected !== null ? stepRowId(selected) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" className={styles.headGroup}>
        <div role="row" aria-rowindex={1} className={`${styles.row} ${styles.head}`}>
          {COLUMNS.map((c) => (
            <span key={c} role="columnheader" className={styles.ellipsis}>
              {c}
            </span>
          ))}
        </div>
      </div>
      <div
        ref={viewport}
        className={styles.viewport}
        style={{ height: Math.min(LIST_HEIGHT, Math.max(1, steps.length) * ROW_HEIGHT) }}
        tabIndex={-1}
      >
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const step = steps[item.index];
            if (!step) return null;
            const isSelected = step.ordinal === selected;
            return (
              <div
                key={step.ordinal}
                id={stepRowId(step.ordinal)}
                role="row"
                aria-rowindex={step.ordinal + 1}
                aria-selected={isSelected}
                className={styles.row}
                data-signal={step.signals.length > 0 ? '' : undefined}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onClick={() => onSelect(step.ordinal)}
              >
                <span role="gridcell" className={styles.index}>
                  {step.index}
                </span>
                <span role="gridcell" className={styles.action}>
                  <HashChip hashKey={step.actionKey} />
                  <span className={styles.ellipsis}>{step.action ?? '—'}</span>
                </span>
                <span role="gridcell" className={styles.hash}>
                  {step.actionHash ?? '—'}
                </span>
                <span role="gridcell" className={styles.action}>
                  <HashChip hashKey={step.stateKey} />
                  <span className={styles.hash}>{step.stateHash ?? '—'}</span>
                </span>
                <span role="gridcell" className={styles.num}>
                  {step.progress ?? '—'}
                </span>
                <span role="gridcell" className={styles.ellipsis}>
                  {step.verdict ? (
                    <span
                      className={styles[`verdict_${step.verdict}`]}
                      title={`${step.verdict}, decided by ${step.verdictSource ?? 'self'}`}
                    >
                      {step.verdict}
                      <span className="muted">
                        {' '}
                        ·{' '}
                        {step.verdictSource === 'environment'
                          ? 'env'
                          : (step.verdictSource ?? 'self')}
                      </span>
                    </span>
                  ) : step.errorClass ? (
                    <span className={styles.verdict_fail}>{step.errorClass}</span>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </span>
                <span role="gridcell" className={styles.num}>
                  {formatUsd(step.costUsd)}
                </span>
                <span role="gridcell" className={styles.num}>
                  {formatDuration(step.durationMs)}
                </span>
                <span role="gridcell">
                  <StepSignals step={step} />
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

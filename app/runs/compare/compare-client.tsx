'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AlignedRows } from '@/components/compare/aligned-rows';
import { AlignmentLanes } from '@/components/compare/alignment-lanes';
import { expandCompare } from '@/components/compare/compare-model';
import type { CompareWire } from '@/components/compare/compare-model';
import styles from '@/components/compare/compare.module.css';

/** The interactive part of the compare view: one selected aligned row, shared by the lanes and
 * the list, kept in the URL (`?row=N`) with history.replaceState. */
export function CompareClient({
  wire,
  initialRow,
}: {
  wire: CompareWire;
  initialRow: number | null;
}) {
  const view = useMemo(() => expandCompare(wire), [wire]);
  const { rows } = view;
  const [selected, setSelected] = useState<number | null>(
    initialRow !== null && initialRow >= 1 && initialRow <= rows.length ? initialRow : null,
  );
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const url = new URL(window.location.href);
    if (selected === null) url.searchParams.delete('row');
    else url.searchParams.set('row', String(selected));
    window.history.replaceState(null, '', url);
  }, [selected]);
  const select = useCallback(
    (row: number) => setSelected(Math.min(rows.length, Math.max(1, row))),
    [rows.length],
  );
  // j / k anywhere on the page (the list handles them itself, with the arrow keys).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (rows.length === 0 || (event.key !== 'j' && event.key !== 'k')) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      event.preventDefault();
      setSelected((s) =>
        Math.min(rows.length, Math.max(1, (s ?? 0) + (event.key === 'j' ? 1 : -1))),
      );
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [rows.length]);

  if (rows.length === 0) {
    return <p className="muted">Neither run has any steps to compare.</p>;
  }
  const outcomeLabel = view.stateSource === 'state' ? 'State' : 'Result';
  const divergence = view.firstDivergenceRow === null ? null : rows[view.firstDivergenceRow - 1];
  return (
    <>
      <section className={styles.panel} aria-label="Alignment">
        <div className={styles.jump}>
          {divergence ? (
            <button type="button" onClick={() => select(divergence.row)}>
              Go to the first divergence (row {divergence.row})
            </button>
          ) : null}
          {view.firstSignalRow.a !== null ? (
            <button type="button" onClick={() => select(view.firstSignalRow.a!)}>
              A’s first loop signal
            </button>
          ) : null}
          {view.firstSignalRow.b !== null ? (
            <button type="button" onClick={() => select(view.firstSignalRow.b!)}>
              B’s first loop signal
            </button>
          ) : null}
        </div>
        <AlignmentLanes
          rows={rows}
          firstDivergenceRow={view.firstDivergenceRow}
          firstSignalRow={view.firstSignalRow}
          selected={selected}
          onSelect={select}
        />
      </section>
      <AlignedRows
        rows={rows}
        outcomeLabel={outcomeLabel}
        firstDivergenceRow={view.firstDivergenceRow}
        firstSignalRow={view.firstSignalRow}
        selected={selected}
        onSelect={select}
      />
    </>
  );
}

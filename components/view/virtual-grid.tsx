'use client';

import { useEffect, useRef } from 'react';
import type { CSSProperties, KeyboardEvent, ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import styles from './virtual-grid.module.css';

export { styles as gridStyles };

export const ROW_HEIGHT = 30;
export const LIST_HEIGHT = 480;

export interface VirtualRow {
  /** Position in the grid, 0-based. */
  index: number;
  /** Where the row goes: spread it on the row element. */
  style: CSSProperties;
}

/**
 * A grid of fixed-height rows of which only those in view (and a few more) are mounted, with one
 * selected row (1-based) that the arrow keys, j / k, Page Up / Down, Home and End move, scrolled
 * into view when it changes. The caller draws each row (a `role="row"` element with
 * `gridStyles.row` and its own columns) and the header's cells.
 */
export function VirtualGrid({
  label,
  count,
  columnCount,
  columns,
  header,
  selected,
  onSelect,
  rowId,
  scrollAlign,
  renderRow,
}: {
  label: string;
  count: number;
  columnCount: number;
  /** The class that gives a row (header included) its columns. */
  columns: string | undefined;
  header: ReactNode;
  selected: number | null;
  onSelect: (row: number) => void;
  rowId: (row: number) => string;
  /** Where a newly selected row is scrolled to. */
  scrollAlign: 'auto' | 'center';
  renderRow: (row: VirtualRow) => ReactNode;
}) {
  const viewport = useRef<HTMLDivElement>(null);
  // The virtualizer's functions change identity as it scrolls: this component is not memoised.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => viewport.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
    initialRect: { width: 800, height: LIST_HEIGHT },
    useFlushSync: false,
  });
  useEffect(() => {
    if (selected !== null) virtualizer.scrollToIndex(selected - 1, { align: scrollAlign });
  }, [selected, virtualizer, scrollAlign]);

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
      End: count,
    };
    const next = moves[event.key];
    if (next === undefined || count === 0) return;
    event.preventDefault();
    event.stopPropagation();
    onSelect(Math.min(count, Math.max(1, next)));
  };

  return (
    <div
      className={styles.grid}
      role="grid"
      aria-label={label}
      aria-rowcount={count + 1}
      aria-colcount={columnCount}
      aria-activedescendant={selected !== null ? rowId(selected) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" className={styles.headGroup}>
        <div
          role="row"
          aria-rowindex={1}
          className={`${styles.row} ${styles.head} ${columns ?? ''}`}
        >
          {header}
        </div>
      </div>
      <div
        ref={viewport}
        className={styles.viewport}
        style={{ height: Math.min(LIST_HEIGHT, Math.max(1, count) * ROW_HEIGHT) }}
        tabIndex={-1}
      >
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) =>
            renderRow({
              index: item.index,
              style: { transform: `translateY(${item.start}px)`, height: ROW_HEIGHT },
            }),
          )}
        </div>
      </div>
    </div>
  );
}

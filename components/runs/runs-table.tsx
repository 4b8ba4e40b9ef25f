'use client';

import { useMemo } from 'react';
import type { CSSProperties } from 'react';
import { useTable } from '@tanstack/react-table';
import type { SortingState, Updater } from '@tanstack/react-table';
import type { RunSummary } from '@/lib/api-types';
import type { RunSort } from '@/lib/filters';
import { useUrlPatch } from '../url/use-url-patch';
import { contentWidths } from './column-widths';
import { runColumns, runTableFeatures, SORTABLE } from './run-columns';
import styles from './runs-table.module.css';

/** What a small screen, which hides the column headers, offers to sort by. */
const SORT_CHOICES: { value: string; label: string }[] = [
  { value: 'startedAt:desc', label: 'Newest first' },
  { value: 'startedAt:asc', label: 'Oldest first' },
  { value: 'costUsd:desc', label: 'Most spend' },
  { value: 'wastedUsd:desc', label: 'Most wasted' },
  { value: 'stepCount:desc', label: 'Most steps' },
  { value: 'durationMs:desc', label: 'Longest' },
];

/** The runs of one keyset page. Sorting is the server's: a header click changes the URL. Below
 * 720 px each row is a card (runs-table.module.css): the run, its exit, spend and signals first. */
// With every other column at its widest the table still fits 1440 px; at 1280 it fits unless
// agent and variant names are both long, when it scrolls sideways in its box.
const RUN_MIN_PX = 160;

export function RunsTable({
  runs,
  sort,
  order,
  view,
  timeZone,
}: {
  runs: RunSummary[];
  sort: RunSort;
  order: 'asc' | 'desc';
  /** The project, window and time zone, for links to each run. */
  view: Record<string, string>;
  timeZone: string;
}) {
  const { href, push } = useUrlPatch();
  const columns = useMemo(
    () => runColumns({ view, timeZone, flagHref: (flag) => href({ flag }) }),
    [view, timeZone, href],
  );
  const widths = useMemo(() => contentWidths(runs), [runs]);
  const sorting = useMemo<SortingState>(
    () => [{ id: sort, desc: order === 'desc' }],
    [sort, order],
  );
  const onSortingChange = (updater: Updater<SortingState>) => {
    const next = typeof updater === 'function' ? updater(sorting) : updater;
    const first = next[0];
    if (!first || !SORTABLE.has(first.id)) return;
    push({ sort: first.id, order: first.desc ? 'desc' : 'asc' });
  };
  const table = useTable({
    features: runTableFeatures,
    columns,
    data: runs,
    getRowId: (run) => run.id,
    state: { sorting },
    onSortingChange,
    manualSorting: true,
    enableSortingRemoval: false,
    sortDescFirst: true,
  });
  // The run's column takes what the others leave: never less than RUN_MIN_PX, however wide the
  // content-sized ones grow (the table scrolls sideways instead).
  const tableMinWidth =
    RUN_MIN_PX +
    table
      .getAllLeafColumns()
      .reduce((sum, column) => sum + (widths[column.id] ?? column.columnDef.meta?.width ?? 0), 0);

  const sortChoice = `${sort}:${order}`;
  return (
    <div className={styles.scroller}>
      <label className={styles.cardSort}>
        Sort runs by
        <select
          value={SORT_CHOICES.some((c) => c.value === sortChoice) ? sortChoice : ''}
          onChange={(event) => {
            const [nextSort, nextOrder] = event.target.value.split(':');
            push({ sort: nextSort, order: nextOrder });
          }}
        >
          {SORT_CHOICES.some((c) => c.value === sortChoice) ? null : <option value="">—</option>}
          {SORT_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      <table
        className={styles.table}
        style={{ '--content-min-width': `${tableMinWidth}px` } as CSSProperties}
      >
        <colgroup>
          {table.getAllLeafColumns().map((column) => (
            <col
              key={column.id}
              style={{ width: widths[column.id] ?? column.columnDef.meta?.width }}
            />
          ))}
        </colgroup>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const numeric = header.column.columnDef.meta?.numeric;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={numeric ? styles.numeric : undefined}
                    aria-sort={
                      sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined
                    }
                  >
                    {header.column.getCanSort() ? (
                      <button
                        type="button"
                        className={styles.sortButton}
                        onClick={header.column.getToggleSortingHandler()}
                      >
                        <table.FlexRender header={header} />
                        <span className={styles.sortMark} aria-hidden="true">
                          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                        </span>
                      </button>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((cell) => (
                <td
                  key={cell.id}
                  className={cell.column.columnDef.meta?.numeric ? styles.numeric : undefined}
                  data-col={cell.column.id}
                  data-label={cell.column.columnDef.meta?.label}
                >
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

'use client';

import { useMemo } from 'react';
import { useTable } from '@tanstack/react-table';
import type { SortingState, Updater } from '@tanstack/react-table';
import type { RunSummary } from '@/lib/api-types';
import type { RunSort } from '@/lib/filters';
import { useUrlPatch } from '../url/use-url-patch';
import { runColumns, runTableFeatures, SORTABLE } from './run-columns';
import styles from './runs-table.module.css';

/** The runs of one keyset page. Sorting is the server's: a header click changes the URL. */
export function RunsTable({
  runs,
  sort,
  order,
  project,
}: {
  runs: RunSummary[];
  sort: RunSort;
  order: 'asc' | 'desc';
  project: string | undefined;
}) {
  const { href, push } = useUrlPatch();
  const columns = useMemo(
    () => runColumns({ project, flagHref: (flag) => href({ flag }) }),
    [project, href],
  );
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

  return (
    <div className={styles.scroller}>
      <table className={styles.table}>
        <colgroup>
          {table.getAllLeafColumns().map((column) => (
            <col key={column.id} style={{ width: column.columnDef.meta?.width }} />
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

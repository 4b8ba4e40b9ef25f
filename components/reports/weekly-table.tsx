'use client';

import Link from 'next/link';
import { useMemo } from 'react';
import { createColumnHelper, metaHelper, tableFeatures, useTable } from '@tanstack/react-table';
import type { WeeklyRow } from '@/trajectory/report-weekly';
import { assignSeriesStyles } from '../charts/palette';
import type { SeriesStyle } from '../charts/palette';
import { formatCount, formatUsd } from '../format';
import { describeChange, formatRatio, groupLabel } from './labels';
import type { GroupDimension } from './labels';
import styles from './reports.module.css';

const features = tableFeatures({ columnMeta: metaHelper<{ numeric?: boolean }>() });
const helper = createColumnHelper<typeof features, WeeklyRow>();

function weeklyColumns(
  groupBy: GroupDimension,
  pricesHref: string,
  colors: Map<string | null, SeriesStyle>,
) {
  return helper.columns([
    helper.accessor('week', { header: 'Week' }),
    helper.accessor('group', {
      header: groupBy === 'agent' ? 'Agent' : groupBy === 'variant' ? 'Variant' : 'Model',
      cell: (info) => (
        <>
          <span
            className={styles.swatch}
            style={{ background: colors.get(info.getValue())?.color }}
            aria-hidden="true"
          />
          <span className="one-line" title={groupLabel(info.getValue(), groupBy)}>
            {groupLabel(info.getValue(), groupBy)}
          </span>
        </>
      ),
    }),
    helper.accessor('runs', {
      header: 'Runs',
      cell: (info) => formatCount(info.getValue()),
      meta: { numeric: true },
    }),
    helper.accessor('verifiedRuns', {
      header: 'Verified runs',
      cell: (info) => formatCount(info.getValue()),
      meta: { numeric: true },
    }),
    helper.accessor('verifiedUnits', {
      header: 'Verified units',
      cell: (info) => formatCount(info.getValue()),
      meta: { numeric: true },
    }),
    helper.accessor('costUsd', {
      header: 'Spend',
      cell: (info) => {
        const unpriced = info.row.original.unpricedRuns;
        return (
          <>
            {formatUsd(info.getValue())}
            {unpriced > 0 && (
              <Link
                className={styles.incomplete}
                href={pricesHref}
                title={`${unpriced} run${unpriced === 1 ? '' : 's'} used a model without a price: the spend shown is a lower bound`}
              >
                incomplete
              </Link>
            )}
          </>
        );
      },
      meta: { numeric: true },
    }),
    helper.accessor('wastedUsd', {
      header: 'Wasted',
      cell: (info) => formatUsd(info.getValue()),
      meta: { numeric: true },
    }),
    helper.accessor('costPerVerifiedUnit', {
      header: 'Cost / verified unit',
      cell: (info) => {
        const value = info.getValue();
        return (
          <strong>
            {value !== null && info.row.original.unpricedRuns > 0 ? '≥ ' : ''}
            {formatRatio(value)}
          </strong>
        );
      },
      meta: { numeric: true },
    }),
    helper.accessor('change', {
      header: 'vs previous week',
      cell: (info) => {
        const change = info.getValue();
        if (change === null) return <span className="muted">—</span>;
        const { text, direction } = describeChange(change);
        return <span className={direction === 'same' ? undefined : styles[direction]}>{text}</span>;
      },
      meta: { numeric: true },
    }),
  ]);
}

/** Every week and group of the report, newest week first, with the change from the week before. */
export function WeeklyTable({
  rows,
  groupBy,
  pricesHref,
  domain,
}: {
  rows: WeeklyRow[];
  groupBy: GroupDimension;
  pricesHref: string;
  /** Every name of the dimension in the window, which fixes each group's colour. */
  domain: readonly string[];
}) {
  const colors = useMemo(
    () => assignSeriesStyles([...domain, ...rows.map((r) => r.group)]),
    [domain, rows],
  );
  const columns = useMemo(
    () => weeklyColumns(groupBy, pricesHref, colors),
    [groupBy, pricesHref, colors],
  );
  const data = useMemo(
    () =>
      [...rows].sort((a, b) =>
        a.weekStart < b.weekStart ? 1 : a.weekStart > b.weekStart ? -1 : 0,
      ),
    [rows],
  );
  const table = useTable({
    features,
    columns,
    data,
    getRowId: (row) => `${row.weekStart}|${row.group ?? ''}`,
  });
  const rowModel = table.getRowModel().rows;
  return (
    <div className={styles.tableWrap}>
      <table className={`${styles.table} ${styles.stacked}`}>
        <caption className="visually-hidden">
          Runs, verified work and spend per ISO week and {groupBy}
        </caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th
                  key={header.id}
                  scope="col"
                  className={header.column.columnDef.meta?.numeric ? styles.num : undefined}
                >
                  <table.FlexRender header={header} />
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {rowModel.map((row, k) => (
            <tr
              key={row.id}
              className={
                k > 0 && rowModel[k - 1]?.original.weekStart !== row.original.weekStart
                  ? styles.weekStart
                  : undefined
              }
            >
              {row.getAllCells().map((cell) => (
                <td
                  key={cell.id}
                  className={cell.column.columnDef.meta?.numeric ? styles.num : undefined}
                  data-label={
                    typeof cell.column.columnDef.header === 'string'
                      ? cell.column.columnDef.header
                      : undefined
                  }
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

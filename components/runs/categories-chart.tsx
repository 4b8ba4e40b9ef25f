'use client';

import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { EXIT_CATEGORIES, EXIT_CATEGORY_META } from '@/trajectory/exit-categories';
import type { ExitCategory } from '@/trajectory/exit-categories';
import { formatBucket, formatCount } from '../format';
import { categoryColor } from '../theme/category-vars';
import { useUrlPatch } from '../url/use-url-patch';
import styles from './chart.module.css';

export interface ChartBucket {
  startMs: number;
  runs: Partial<Record<ExitCategory, number>>;
}

/** Runs per exit category over time, stacked, in the categories' colours. A bar filters. */
export function CategoriesChart({
  buckets,
  bucket,
  timeZone,
  filter,
}: {
  buckets: ChartBucket[];
  bucket: 'hour' | 'day' | 'week';
  timeZone: string;
  /** The exit category and signal the bars answer for, if any. */
  filter: string | null;
}) {
  const { push } = useUrlPatch();
  const present = EXIT_CATEGORIES.filter((c) => buckets.some((b) => (b.runs[c] ?? 0) > 0));
  const data = buckets.map((b) => ({
    label: formatBucket(b.startMs, bucket, timeZone),
    ...b.runs,
  }));
  const total = buckets.reduce(
    (n, b) => n + Object.values(b.runs).reduce((m, v) => m + (v ?? 0), 0),
    0,
  );
  return (
    <figure className={styles.figure}>
      <figcaption className={styles.caption}>
        <h2>Exit categories over time</h2>
        <span className="muted">
          {formatCount(total)} {total === 1 ? 'run' : 'runs'}
          {filter ? ` (${filter})` : ''}, per {bucket} ({bucket === 'week' ? 'UTC' : timeZone})
        </span>
      </figcaption>
      <div className={styles.plot}>
        <BarChart
          responsive
          data={data}
          style={{ width: '100%', height: '100%' }}
          margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
          barCategoryGap="12%"
        >
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis
            dataKey="label"
            tick={{ fill: 'var(--muted)', fontSize: 11 }}
            tickLine={false}
            axisLine={{ stroke: 'var(--border-strong)' }}
            minTickGap={24}
          />
          <YAxis
            allowDecimals={false}
            tick={{ fill: 'var(--muted)', fontSize: 11 }}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip
            cursor={{ fill: 'var(--bg-inset)' }}
            contentStyle={{
              background: 'var(--bg)',
              border: '1px solid var(--border-strong)',
              borderRadius: 8,
              fontSize: 12,
            }}
            labelStyle={{ color: 'var(--fg)', fontWeight: 600 }}
          />
          {present.map((c) => (
            <Bar
              key={c}
              dataKey={c}
              name={EXIT_CATEGORY_META[c].label}
              stackId="runs"
              fill={categoryColor(c)}
              isAnimationActive={false}
              cursor="pointer"
              onClick={() => push({ exitCategory: c })}
            />
          ))}
        </BarChart>
      </div>
    </figure>
  );
}

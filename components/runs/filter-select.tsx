'use client';

import { useUrlPatch } from '../url/use-url-patch';
import styles from './filters.module.css';

/** A menu that sets one query parameter (agent, variant, …); "All" removes it. */
export function FilterSelect({
  param,
  label,
  value,
  options,
  resets = [],
}: {
  param: string;
  label: string;
  value: string | undefined;
  options: { value: string; runs: number }[];
  /** Parameters that no longer make sense once this one changes. */
  resets?: string[];
}) {
  const { push } = useUrlPatch();
  const values =
    value && !options.some((o) => o.value === value) ? [{ value, runs: 0 }, ...options] : options;
  return (
    <label className={styles.field}>
      {label}
      <select
        value={value ?? ''}
        onChange={(event) =>
          push({
            [param]: event.target.value || null,
            ...Object.fromEntries(resets.map((r) => [r, null])),
          })
        }
      >
        <option value="">All</option>
        {values.map((o) => (
          <option key={o.value} value={o.value}>
            {o.value} ({o.runs})
          </option>
        ))}
      </select>
    </label>
  );
}

'use client';

import { useRouter, useSearchParams } from 'next/navigation';
import { viewHref } from '@/lib/view-window';
import styles from './filters.module.css';

/** Shown when there is more than one project: switching opens that project's runs afresh, in the
 * same window and time zone. */
export function ProjectSwitcher({ projects, current }: { projects: string[]; current: string }) {
  const router = useRouter();
  const search = useSearchParams();
  if (projects.length < 2) return null;
  return (
    <label className={styles.field}>
      Project
      <select
        value={current}
        onChange={(event) => router.push(viewHref('/', search, { project: event.target.value }))}
      >
        {projects.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

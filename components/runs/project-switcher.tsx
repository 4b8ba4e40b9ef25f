'use client';

import { useRouter } from 'next/navigation';
import styles from './filters.module.css';

/** Shown when there is more than one project: switching opens that project's runs afresh. */
export function ProjectSwitcher({ projects, current }: { projects: string[]; current: string }) {
  const router = useRouter();
  if (projects.length < 2) return null;
  return (
    <label className={styles.field}>
      Project
      <select
        value={current}
        onChange={(event) => router.push(`/?project=${encodeURIComponent(event.target.value)}`)}
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

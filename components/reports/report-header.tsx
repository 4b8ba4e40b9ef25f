import Link from 'next/link';
import type { ReactNode } from 'react';
import { viewHref } from '@/lib/view-window';
import styles from './reports.module.css';

export type ReportTab = 'weekly' | 'compare' | 'caps' | 'prices';

export const REPORT_TABS: { tab: ReportTab; label: string; path: string }[] = [
  { tab: 'weekly', label: 'Weekly report', path: '/reports/weekly' },
  { tab: 'compare', label: 'Compare variants', path: '/reports/compare' },
  { tab: 'caps', label: 'Budget caps', path: '/reports/caps' },
  { tab: 'prices', label: 'Prices', path: '/prices' },
];

/** The reports' title, the one-line answer it gives, and tabs between the reports. */
export function ReportHeader({
  current,
  title,
  view,
  children,
}: {
  current: ReportTab;
  title: string;
  /** The project, window and time zone, carried over to the other tabs. */
  view: Record<string, string>;
  children?: ReactNode;
}) {
  return (
    <header className={styles.header}>
      <nav aria-label="Reports" className={styles.tabs}>
        {REPORT_TABS.map((t) => (
          <Link
            key={t.tab}
            className={styles.tab}
            href={viewHref(t.path, view)}
            aria-current={t.tab === current ? 'page' : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      <h1>{title}</h1>
      {children}
    </header>
  );
}

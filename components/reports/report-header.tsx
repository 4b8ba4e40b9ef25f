import Link from 'next/link';
import type { ReactNode } from 'react';
import { ReportNotice } from './report-notice';
import styles from './reports.module.css';

export type ReportTab = 'weekly' | 'compare' | 'caps' | 'prices';

const TABS: { tab: ReportTab; label: string; path: string }[] = [
  { tab: 'weekly', label: 'Weekly report', path: '/reports/weekly' },
  { tab: 'compare', label: 'Compare variants', path: '/reports/compare' },
  { tab: 'caps', label: 'Budget caps', path: '/reports/caps' },
  { tab: 'prices', label: 'Prices', path: '/prices' },
];

/** The reports' title, the one-line answer it gives, and tabs between the reports. */
export function ReportHeader({
  current,
  title,
  project,
  children,
}: {
  current: ReportTab;
  title: string;
  /** Carried over to the other tabs; omitted for the default project. */
  project?: string;
  children?: ReactNode;
}) {
  const query = project ? `?project=${encodeURIComponent(project)}` : '';
  return (
    <header className={styles.header}>
      <nav aria-label="Reports" className={styles.tabs}>
        {TABS.map((t) => (
          <Link
            key={t.tab}
            className={styles.tab}
            href={`${t.path}${query}`}
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

/** A report page that cannot answer its URL: the header and what is wrong with the request. */
export function ReportProblem({
  current,
  title,
  project,
  message,
}: {
  current: ReportTab;
  title: string;
  project?: string;
  message: string;
}) {
  return (
    <main id="main" className={`page ${styles.reports}`}>
      <ReportHeader current={current} title={title} project={project} />
      <ReportNotice danger>{message}</ReportNotice>
    </main>
  );
}

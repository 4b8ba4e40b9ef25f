'use client';

import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { viewHref } from '@/lib/view-window';

// Prices is one of the Reports' tabs (components/reports/report-header.tsx), not a section.
const SECTIONS = [
  { label: 'Runs', path: '/', owns: (p: string) => p === '/' || p.startsWith('/runs') },
  { label: 'Patterns', path: '/patterns', owns: (p: string) => p.startsWith('/patterns') },
  { label: 'To check', path: '/to-check', owns: (p: string) => p.startsWith('/to-check') },
  { label: 'Sessions', path: '/sessions', owns: (p: string) => p.startsWith('/sessions') },
  {
    label: 'Reports',
    path: '/reports/weekly',
    owns: (p: string) => p.startsWith('/reports') || p.startsWith('/prices'),
  },
  { label: 'Alerts', path: '/alerts', owns: (p: string) => p.startsWith('/alerts') },
];

/** The main navigation; each link keeps the project, window and time zone of the page. */
export function AppNav() {
  const pathname = usePathname();
  const search = useSearchParams();
  return (
    <nav className="app-nav" aria-label="Main">
      {SECTIONS.map((s) => (
        <Link
          key={s.path}
          href={viewHref(s.path, search)}
          aria-current={s.owns(pathname) ? 'page' : undefined}
        >
          {s.label}
        </Link>
      ))}
    </nav>
  );
}

/** The same links before the URL is known (a page rendered without one). */
export function PlainNav() {
  return (
    <nav className="app-nav" aria-label="Main">
      {SECTIONS.map((s) => (
        <Link key={s.path} href={s.path}>
          {s.label}
        </Link>
      ))}
    </nav>
  );
}

import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { CategoryVars } from '@/components/theme/category-vars';
import { currentDoor } from './dashboard-guard';
import { logOut } from './login/actions';
import './globals.css';

export const metadata: Metadata = {
  title: 'Loopscope',
  description:
    'Why each agent run stopped, whether it looped, and what a verified unit of work costs.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <CategoryVars />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="app-header">
          <Link className="brand" href="/">
            Loopscope
          </Link>
          <nav className="app-nav" aria-label="Main">
            <Link href="/">Runs</Link>
            <Link href="/reports/weekly">Reports</Link>
            <Link href="/prices">Prices</Link>
          </nav>
          <span className="tagline">why agent runs stop, whether they loop, what they cost</span>
          {currentDoor().password !== null ? (
            <form action={logOut}>
              <button className="link-button" type="submit">
                Log out
              </button>
            </form>
          ) : null}
        </header>
        {children}
      </body>
    </html>
  );
}

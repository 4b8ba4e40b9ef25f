import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { Suspense } from 'react';
import type { ReactNode } from 'react';
import { CategoryVars } from '@/components/theme/category-vars';
import { SeriesVars } from '@/components/theme/series-vars';
import { AppNav, PlainNav } from '@/components/view/app-nav';
import { ServerNotices } from '@/components/view/server-notices';
import { readSourceNow, spoolBacklogNow } from '@/server/runtime';
import { currentDoor, hasDashboardSession } from './dashboard-guard';
import { logOut } from './login/actions';
import './globals.css';

export const metadata: Metadata = {
  title: 'Loopscope',
  description:
    'Why each agent run stopped, whether it looped, and what a verified unit of work costs.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page, the not-found page too, renders per request: Next.js puts the request's CSP nonce
  // on its scripts only then, and a page prerendered at build time runs none of them.
  await connection();
  // Signed out (the login page, a foreign Host), the header shows the name alone: no links that
  // lead back to the login page, no "Log out", no server notices.
  const signedIn = await hasDashboardSession();
  return (
    <html lang="en">
      <head>
        <CategoryVars />
        <SeriesVars />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="app-header">
          <Link className="brand" href="/">
            Loopscope
          </Link>
          {signedIn ? (
            <Suspense fallback={<PlainNav />}>
              <AppNav />
            </Suspense>
          ) : null}
          <span className="tagline">why agent runs stop, whether they loop, what they cost</span>
          {signedIn && currentDoor().password !== null ? (
            <form action={logOut}>
              <button className="link-button" type="submit">
                Log out
              </button>
            </form>
          ) : null}
        </header>
        {signedIn ? (
          <ServerNotices initial={{ behind: spoolBacklogNow(), reads: readSourceNow() }} />
        ) : null}
        {children}
      </body>
    </html>
  );
}

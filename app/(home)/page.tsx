import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { HomeBodySkeleton } from '@/components/skeletons';
import { ViewBar } from '@/components/view/view-bar';
import { searchParamsObject } from '@/lib/filters';
import { requireDatabase } from '@/server/runtime';
import { chooseProject } from '../current-project';
import { pageTimeZone } from '../page-time-zone';
import { HomeBody } from './home-body';
import { HomeHeader } from './home-parts';
import { parseHomeQuery } from './search-params';

export const dynamic = 'force-dynamic';

export default async function HomePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const search = await searchParams;
  const timeZone = await pageTimeZone(searchParamsObject(search));
  // The checks that decide the status come before anything streams: a bad link is a 404 whose
  // page (./not-found.tsx) names every problem, never a 200.
  const parsed = parseHomeQuery(search, new Date(), timeZone);
  if (!parsed.ok) notFound();
  const db = requireDatabase();
  const projects = await chooseProject(db, parsed.query.params.project);
  if (!projects.current) notFound();
  const { raw, window } = parsed.query;
  return (
    <main id="main" className="page">
      <HomeHeader
        window={window}
        projects={projects.projects.map((p) => p.name)}
        current={projects.current.name}
      />
      <ViewBar path="/" query={raw} window={window} />
      <Suspense fallback={<HomeBodySkeleton />}>
        <HomeBody db={db} project={projects.current} query={parsed.query} />
      </Suspense>
    </main>
  );
}

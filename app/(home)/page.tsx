import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { HomeBodySkeleton } from '@/components/skeletons';
import { ViewBar } from '@/components/view/view-bar';
import { dashboardRead } from '../read-door';
import { HomeBody } from './home-body';
import { HomeHeader } from './home-parts';
import { parseHomeQuery } from './search-params';

export const dynamic = 'force-dynamic';

export default async function HomePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // The checks that decide the status come before anything streams: a bad link is a 404 whose
  // page (./not-found.tsx) names every problem, never a 200.
  const read = await dashboardRead(searchParams, {
    parse: (search, { now, timeZone }) => {
      const parsed = parseHomeQuery(search, now, timeZone);
      return parsed.ok ? { ok: true, data: parsed.query } : parsed;
    },
    project: (query) => query.params.project,
    settle: 'project',
  });
  if (!read.ok) notFound();
  const { db, project, projects, data: query } = read;
  const { raw, window } = query;
  return (
    <main id="main" className="page">
      <HomeHeader window={window} projects={projects.map((p) => p.name)} current={project.name} />
      <ViewBar path="/" query={raw} window={window} />
      <Suspense fallback={<HomeBodySkeleton />}>
        <HomeBody db={db} project={project} query={query} />
      </Suspense>
    </main>
  );
}

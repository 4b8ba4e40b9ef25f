import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { formatDateTime, formatUsd } from '@/components/format';
import { ReviewList } from '@/components/runs/review-list';
import { listRuns } from '@/db/read/list-runs';
import { oneOf, projectName, resolveWindow } from '@/lib/filters';
import { EXIT_CATEGORY_META } from '@/trajectory/exit-categories';
import { dashboardRead, schemaParse } from '../read-door';

export const dynamic = 'force-dynamic';

const params = z.object({
  project: projectName.optional(),
  sort: oneOf(['startedAt', 'costUsd']).default('startedAt'),
});

const PAGE = 200;

/**
 * Runs that claim success (goal satisfied, model stopped) with nobody's check behind them: the
 * newest (or the most expensive) first, for a reviewer to open one by one and give a verdict.
 */
export default async function ToCheckPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const read = await dashboardRead<z.output<typeof params>>(searchParams, {
    parse: schemaParse(params),
    project: (q) => q.project,
    settle: 'project',
  });
  if (!read.ok) notFound();
  const { db, project, data, timeZone, now } = read;
  const page = await listRuns(db, {
    projectId: project.id,
    window: resolveWindow({}, now),
    toCheck: true,
    sort: data.sort,
    order: 'desc',
    limit: PAGE,
  });
  const projectQuery = data.project ? `project=${encodeURIComponent(data.project)}` : '';
  const href = (path: string, extra: string[] = []) => {
    const q = [projectQuery, ...extra].filter(Boolean).join('&');
    return q ? `${path}?${q}` : path;
  };
  return (
    <main id="main" className="page">
      <h1>To check</h1>
      <p className="muted">
        Runs of the last 30 days that claim success while no environment check, review or person has
        confirmed it. Open one (j / k to move, Enter to open), check the outcome and record your
        verdict; it leaves this list.
      </p>
      <nav aria-label="Order" className="muted">
        Order:{' '}
        {data.sort === 'startedAt' ? (
          <strong aria-current="true">newest first</strong>
        ) : (
          <Link href={href('/to-check')}>newest first</Link>
        )}{' '}
        ·{' '}
        {data.sort === 'costUsd' ? (
          <strong aria-current="true">most expensive first</strong>
        ) : (
          <Link href={href('/to-check', ['sort=costUsd'])}>most expensive first</Link>
        )}
      </nav>
      {page.runs.length === 0 ? (
        <p role="status">Nothing to check: every run that claims success has been checked.</p>
      ) : (
        <ReviewList
          items={page.runs.map((run) => ({
            id: run.id,
            href: href(`/runs/${encodeURIComponent(run.id)}`),
            goal: run.goal ?? run.id,
            agent: run.agent,
            exit: EXIT_CATEGORY_META[run.exitCategory].label,
            cost: formatUsd(run.costUsd),
            started: `${formatDateTime(run.startedAt, timeZone)} ${timeZone}`,
          }))}
        />
      )}
      {page.nextCursor ? (
        <p className="muted">The first {PAGE} are shown; check these and more appear.</p>
      ) : null}
    </main>
  );
}

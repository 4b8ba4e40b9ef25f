import Link from 'next/link';
import { notFound } from 'next/navigation';
import { formatCount, formatUsd } from '@/components/format';
import { exitSummary } from '@/components/sessions/exit-summary';
import { SessionRuns } from '@/components/sessions/session-runs';
import { SpendCurve } from '@/components/sessions/spend-curve';
import styles from '@/components/sessions/sessions.module.css';
import { getSession } from '@/db/read/sessions';
import { keyId, projectName } from '@/lib/filters';
import { z } from 'zod';
import { schemaParse, dashboardRead } from '../../read-door';

export const dynamic = 'force-dynamic';

const params = z.object({ project: projectName.optional() });
const sessionSegment = keyId();

/** One session: its runs in order with their exits, spend per run as a curve, its totals. */
export default async function SessionPage({
  params: routeParams,
  searchParams,
}: {
  params: Promise<{ sessionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const segment = sessionSegment.safeParse(decodeSegment((await routeParams).sessionId));
  if (!segment.success) notFound();
  const sessionId = segment.data;
  const read = await dashboardRead<z.output<typeof params>>(searchParams, {
    parse: schemaParse(params),
    project: (q) => q.project,
    settle: 'project',
  });
  if (!read.ok) notFound();
  const found = await getSession(read.db, { projectId: read.project.id, sessionId });
  if (!found) notFound();
  const { session, runs } = found;
  const query = read.data.project ? `?project=${encodeURIComponent(read.data.project)}` : '';
  const exits = exitSummary(session.exitCategories);
  return (
    <main id="main" className="page">
      <nav aria-label="Breadcrumb">
        <Link href={`/sessions${query}`}>← Sessions</Link>
      </nav>
      <h1 className="clamp" title={session.id}>
        Session {session.id}
      </h1>
      <p className="muted clamp" title={session.agent ?? undefined}>
        agent {session.agent ?? '—'} · {exits}
      </p>
      <dl className={styles.totals}>
        <div>
          <dt>Runs</dt>
          <dd>{formatCount(session.runs)}</dd>
        </div>
        <div>
          <dt>Total spend</dt>
          <dd>{formatUsd(session.costUsd)}</dd>
        </div>
        <div>
          <dt>Verified units</dt>
          <dd>{formatCount(session.verifiedUnits)}</dd>
        </div>
      </dl>
      <SpendCurve points={runs.map((r, k) => ({ label: `Run ${k + 1}`, costUsd: r.costUsd }))} />
      <SessionRuns
        runs={runs}
        runHref={(id) => `/runs/${encodeURIComponent(id)}${query}`}
        timeZone={read.timeZone}
      />
    </main>
  );
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

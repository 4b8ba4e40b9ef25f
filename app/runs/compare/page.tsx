import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { buildCompare } from '@/components/compare/compare-model';
import styles from '@/components/compare/compare.module.css';
import { formatCount, formatDateTime, formatUsd } from '@/components/format';
import { ExitBadge } from '@/components/runs/exit-badge';
import { SignalBadges, VerificationMark } from '@/components/runs/signal-badges';
import { TrajectorySkeleton } from '@/components/skeletons';
import { getRun } from '@/db/read/get-run';
import { compareSteps } from '@/db/read/diff-steps';
import type { Executor } from '@/db/sql';
import type { RunDetail } from '@/lib/api-types';
import { viewHref, viewQuery } from '@/lib/view-window';
import { alignStepPositions } from '@/trajectory/align-runs';
import { dashboardRead } from '../../read-door';
import { CompareClient } from './compare-client';
import { parseCompareParams } from './search-params';

export const dynamic = 'force-dynamic';

/** Two runs step by step: where they parted, and each one's first loop signal. */
export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const read = await dashboardRead(searchParams, {
    parse: (search) => parseCompareParams(search),
    project: (query) => query.project,
    settle: (query) => ({ runIds: [query.a, query.b] }),
  });
  // A link it cannot answer is a 404 whose page (./not-found.tsx) names every problem.
  if (!read.ok) notFound();
  const { db, project, data: query, search, timeZone } = read;
  const [a, b] = await Promise.all([
    getRun(db, { projectId: project.id, runId: query.a }),
    getRun(db, { projectId: project.id, runId: query.b }),
  ]);
  if (!a || !b) notFound();
  const view = viewQuery(search);
  const runHref = (id: string) => viewHref(`/runs/${encodeURIComponent(id)}`, view);
  return (
    <main id="main" className="page">
      <nav aria-label="Breadcrumb">
        <Link href={viewHref('/', view)}>← Runs</Link>
      </nav>
      <h1>Compare two runs</h1>
      <p className={`muted ${styles.summary}`}>
        Steps paired by their canonical action, in order, as many as possible: <em>same</em> when
        the outcome ({'state, or result where a run sends no state'}) matches too, <em>changed</em>{' '}
        when only the action does, <em>only A</em> / <em>only B</em> for steps one run took alone.
      </p>
      <div className={styles.sides}>
        <RunSide label="A" run={a} href={runHref(a.id)} timeZone={timeZone} />
        <RunSide label="B" run={b} href={runHref(b.id)} timeZone={timeZone} />
      </div>
      <p>
        <Link href={viewHref('/runs/compare', view, { a: b.id, b: a.id })}>Swap A and B</Link>
      </p>
      <Suspense fallback={<TrajectorySkeleton />}>
        <Alignment db={db} projectId={project.id} a={a} b={b} row={query.row ?? null} />
      </Suspense>
    </main>
  );
}

async function Alignment({
  db,
  projectId,
  a,
  b,
  row,
}: {
  db: Executor;
  projectId: string;
  a: RunDetail;
  b: RunDetail;
  row: number | null;
}) {
  const [stepsA, stepsB] = await Promise.all([
    compareSteps(db, { projectId, runId: a.id }),
    compareSteps(db, { projectId, runId: b.id }),
  ]);
  const wire = buildCompare(stepsA, stepsB, alignStepPositions(stepsA, stepsB));
  return <CompareClient wire={wire} initialRow={row} />;
}

function RunSide({
  label,
  run,
  href,
  timeZone,
}: {
  label: string;
  run: RunDetail;
  href: string;
  timeZone: string;
}) {
  return (
    <section className={styles.side} aria-label={`Run ${label}`}>
      <h2 className={styles.sideTitle}>
        {label} ·{' '}
        <Link className={styles.runLink} href={href}>
          {run.id}
        </Link>
      </h2>
      <p className={styles.sideGoal}>{run.goal ?? 'No goal was sent for this run'}</p>
      <p className={styles.sideFacts}>
        <ExitBadge category={run.exitCategory} reason={run.exitReason} kind={run.exitKind} />
        <VerificationMark run={run} />
      </p>
      <p className={styles.sideFacts}>
        <span>agent {run.agent ?? '—'}</span>
        <span>
          started{' '}
          <time dateTime={run.startedAt}>
            {formatDateTime(run.startedAt, timeZone)} {timeZone}
          </time>
        </span>
      </p>
      <p className={styles.sideFacts}>
        <span>{formatCount(run.stepCount)} steps</span>
        <span>{formatUsd(run.costUsd)} spent</span>
        {run.wastedUsd > 0 ? (
          <span>{formatUsd(run.wastedUsd)} after its first loop signal</span>
        ) : null}
        <span>
          first loop signal: {run.firstSignalStep === null ? 'none' : `step ${run.firstSignalStep}`}
        </span>
      </p>
      <SignalBadges flags={run.flags} />
    </section>
  );
}

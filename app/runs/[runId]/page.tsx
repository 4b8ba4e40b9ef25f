import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { listDeriveFailures } from '@/db/read/derive-failures';
import { baselineRun } from '@/db/read/baseline-run';
import { CompareLinks } from '@/components/compare/compare-links';
import { QuarantineCallout } from '@/components/runs/quarantine-callout';
import { TrajectorySkeleton } from '@/components/skeletons';
import { getRun } from '@/db/read/get-run';
import { humanVerdict } from '@/db/read/human-verdict';
import { VerdictForm } from '@/components/trajectory/verdict-form';
import { LiveRunPill } from '@/components/trajectory/live-run-pill';
import { progressName } from '@/db/read/progress-name';
import { trajectorySteps } from '@/db/read/trajectory-steps';
import type { Executor } from '@/db/sql';
import { keyId } from '@/lib/filters';
import { viewHref, viewQuery } from '@/lib/view-window';
import { buildTrajectory } from '@/components/trajectory/lane-model';
import { RunHeader } from '@/components/trajectory/run-header';
import type { RunDetail } from '@/lib/api-types';
import { dashboardRead } from '../../read-door';
import { parseRunParams } from './search-params';
import { TrajectoryClient } from './trajectory-client';
import { submitVerdict } from './verdict-action';

export const dynamic = 'force-dynamic';

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const segment = keyId().safeParse(decodeSegment((await params).runId));
  if (!segment.success) notFound();
  const runId = segment.data;
  const read = await dashboardRead(searchParams, {
    parse: (search) => ({ ok: true, data: parseRunParams(search) }),
    project: (query) => query.project,
    settle: () => ({ runId }),
  });
  if (!read.ok) notFound();
  const { db, project: current, data: query, search, timeZone } = read;
  // Whether the run exists decides the status, so it is asked before anything streams: an
  // unknown run is a 404 (./not-found.tsx), its steps stream in behind the header.
  const [run, failure, given] = await Promise.all([
    getRun(db, { projectId: current.id, runId }),
    listDeriveFailures(db, { projectId: current.id, runId, limit: 1 }),
    humanVerdict(db, { projectId: current.id, runId }),
  ]);
  if (!run && failure.total === 0) notFound();
  const view = viewQuery(search);
  const backHref = viewHref('/', view);
  const quarantine = (
    <QuarantineCallout total={failure.total} runs={failure.runs} timeZone={timeZone} />
  );
  if (!run) {
    return (
      <main id="main" className="page">
        <h1>Run {runId}</h1>
        {quarantine}
        <p>
          <Link href={backHref}>← Runs</Link>
        </p>
      </main>
    );
  }
  const baseline = await baselineRun(db, current.id, run);
  return (
    <main id="main" className="page">
      <RunHeader
        run={run}
        backHref={backHref}
        timeZone={timeZone}
        sessionHref={
          run.sessionId === null
            ? undefined
            : `/sessions/${encodeURIComponent(run.sessionId)}${query.project ? `?project=${encodeURIComponent(query.project)}` : ''}`
        }
      />
      <CompareLinks
        runId={run.id}
        view={view}
        patternsHref={patternsHref(run, view)}
        baseline={
          baseline
            ? {
                id: baseline.id,
                href: viewHref('/runs/compare', view, { a: run.id, b: baseline.id }),
              }
            : null
        }
      />
      {quarantine}
      {run.endedAt === null ? (
        <LiveRunPill runId={run.id} project={query.project} shownSteps={run.stepCount} />
      ) : null}
      <VerdictForm
        run={run}
        given={given}
        project={query.project}
        action={submitVerdict}
        timeZone={timeZone}
      />
      <Suspense fallback={<TrajectorySkeleton />}>
        <Trajectory
          db={db}
          projectId={current.id}
          run={run}
          project={query.project}
          step={query.step}
          view={query.view}
        />
      </Suspense>
    </main>
  );
}

async function Trajectory({
  db,
  projectId,
  run,
  project,
  step,
  view,
}: {
  db: Executor;
  projectId: string;
  run: RunDetail;
  project: string | undefined;
  step: number | undefined;
  view: 'steps' | 'trace' | undefined;
}) {
  const [rows, name] = await Promise.all([
    trajectorySteps(db, { projectId, runId: run.id }),
    progressName(db, { projectId, runId: run.id }),
  ]);
  const wire = buildTrajectory(rows);
  const initial = step === undefined ? null : wire.index.indexOf(step) + 1 || null;
  return (
    <TrajectoryClient
      runId={run.id}
      project={project}
      wire={wire}
      exitCategory={run.exitCategory}
      progressDirection={run.progressDirection}
      wastedUsd={run.wastedUsd}
      initialOrdinal={initial}
      progressName={name}
      initialView={view ?? null}
    />
  );
}

/** The patterns page for the run's agent and its first loop's kind; null when it did not loop. */
function patternsHref(run: RunDetail, view: Record<string, string>): string | null {
  const { flags } = run;
  const kind = flags.repeat
    ? 'repeat'
    : flags.revisit
      ? 'revisit'
      : flags.stall
        ? 'stall'
        : flags.toolCircuit
          ? 'tool_circuit'
          : null;
  if (kind === null) return null;
  return viewHref('/patterns', view, { agent: run.agent ?? undefined, kind });
}

/** Pages get the segment as it was in the URL (route handlers get it decoded): run ids may hold
 * any character, so links encode them and this decodes them. */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

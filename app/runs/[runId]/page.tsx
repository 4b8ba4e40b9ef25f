import Link from 'next/link';
import { notFound } from 'next/navigation';
import { listDeriveFailures } from '@/db/read/derive-failures';
import { QuarantineCallout } from '@/components/runs/quarantine-callout';
import { getRun } from '@/db/read/get-run';
import { trajectorySteps } from '@/db/read/trajectory-steps';
import { runIdProblem } from '@/lib/filters';
import { requireDatabase } from '@/server/runtime';
import { buildTrajectory } from '@/components/trajectory/lane-model';
import { RunHeader } from '@/components/trajectory/run-header';
import { chooseProject } from '../../current-project';
import { parseRunParams } from './search-params';
import { TrajectoryClient } from './trajectory-client';

export const dynamic = 'force-dynamic';

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const runId = decodeSegment((await params).runId);
  if (runId === null || runIdProblem(runId)) notFound();
  const query = parseRunParams(await searchParams);
  const db = requireDatabase();
  const { current } = await chooseProject(db, query.project);
  if (!current) notFound();
  const [run, failure] = await Promise.all([
    getRun(db, { projectId: current.id, runId }),
    listDeriveFailures(db, { projectId: current.id, runId, limit: 1 }),
  ]);
  const backHref = query.project ? `/?project=${encodeURIComponent(query.project)}` : '/';
  const quarantine = <QuarantineCallout total={failure.total} runs={failure.runs} />;
  if (!run) {
    if (failure.total === 0) notFound();
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
  const wire = buildTrajectory(await trajectorySteps(db, { projectId: current.id, runId }));
  const initial = query.step === undefined ? null : wire.index.indexOf(query.step) + 1 || null;
  return (
    <main id="main" className="page">
      <RunHeader run={run} backHref={backHref} />
      {quarantine}
      <TrajectoryClient
        runId={run.id}
        project={query.project}
        wire={wire}
        exitCategory={run.exitCategory}
        progressDirection={run.progressDirection}
        wastedUsd={run.wastedUsd}
        initialOrdinal={initial}
      />
    </main>
  );
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

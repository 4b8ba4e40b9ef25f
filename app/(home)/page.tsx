import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { loadSampleRunsIntoProject } from '@/samples/load-into-project';
import { categoriesOverTime, bucketFor } from '@/db/read/categories-over-time';
import { countFragments } from '@/db/read/count-fragments';
import { listDeriveFailures } from '@/db/read/derive-failures';
import { exitReasonGroups } from '@/db/read/exit-reason-groups';
import { listRuns } from '@/db/read/list-runs';
import { projectHasRuns } from '@/db/read/projects';
import { runFacets } from '@/db/read/run-facets';
import { AppError, isAppError } from '@/lib/app-error';
import { projectName } from '@/lib/filters';
import { requireDatabase } from '@/server/runtime';
import { EmptyProject } from '@/components/onboarding/empty-project';
import { ActiveFilters } from '@/components/runs/active-filters';
import { CategoriesChart } from '@/components/runs/categories-chart';
import { ExitTiles } from '@/components/runs/exit-tiles';
import { FilterSelect } from '@/components/runs/filter-select';
import { Pager } from '@/components/runs/pager';
import { RunsTable } from '@/components/runs/runs-table';
import { FragmentCallout } from '@/components/runs/fragment-callout';
import { QuarantineCallout } from '@/components/runs/quarantine-callout';
import { UnknownCallout } from '@/components/runs/unknown-callout';
import { WindowPicker } from '@/components/runs/window-picker';
import { hrefWith } from '@/components/url/href';
import type { QueryPatch } from '@/components/url/href';
import { chooseProject } from '../current-project';
import { requireDashboardAction } from '../dashboard-guard';
import { HomeHeader, MissingProject, ProblemNotice } from './home-parts';
import { parseHomeQuery } from './search-params';

export const dynamic = 'force-dynamic';

async function loadSampleRuns(formData: FormData): Promise<void> {
  'use server';
  await requireDashboardAction();
  const project = projectName.safeParse(formData.get('project') ?? 'default');
  if (!project.success) throw new AppError('bad_request', 'project: not a project name');
  await loadSampleRunsIntoProject(project.data);
  revalidatePath('/');
}

export default async function HomePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const parsed = parseHomeQuery(await searchParams);
  if (!parsed.ok) return <ProblemNotice problem={parsed.problem} />;
  const { params, raw, choice, window } = parsed.query;
  const db = requireDatabase();
  const projects = await chooseProject(db, params.project);
  if (!projects.current) return <MissingProject choice={projects} />;
  const project = projects.current;
  const link = (patch: QueryPatch) => hrefWith('/', raw, patch);
  const header = (
    <HomeHeader
      window={window}
      projects={projects.projects.map((p) => p.name)}
      current={project.name}
    />
  );

  if (!(await projectHasRuns(db, project.id))) {
    const requestHeaders = await headers();
    const host = requestHeaders.get('host') ?? '127.0.0.1:3000';
    const proto = requestHeaders.get('x-forwarded-proto') ?? 'http';
    return (
      <main id="main" className="page">
        {header}
        <EmptyProject
          project={project.name}
          endpoint={`${proto}://${host}/v1/traces`}
          loadSampleRuns={loadSampleRuns}
        />
      </main>
    );
  }

  const scope = { projectId: project.id, window, agent: params.agent, variant: params.variant };
  const bucket = bucketFor(window);
  const [groups, buckets, facets, fragments, quarantined] = await Promise.all([
    exitReasonGroups(db, scope),
    categoriesOverTime(db, { ...scope, bucket }),
    runFacets(db, scope),
    countFragments(db, scope),
    listDeriveFailures(db, { projectId: project.id }),
  ]);
  const page = await listRuns(db, { ...params, ...scope }).catch((error: unknown) => {
    // A cursor from another sort, or edited by hand: say so instead of failing the page.
    if (isAppError(error) && error.code === 'bad_request') return error.message;
    throw error;
  });
  if (typeof page === 'string') return <ProblemNotice problem={page} />;
  const unknown = groups.find((g) => g.exitCategory === 'unknown')?.runs ?? 0;
  const keep = Object.fromEntries(
    Object.entries(raw).filter(([k]) => !['window', 'from', 'to', 'cursor'].includes(k)),
  );

  return (
    <main id="main" className="page">
      {header}
      <section className="home-filters" aria-label="Filters">
        <WindowPicker
          choice={choice}
          window={window}
          keep={keep}
          hrefFor={(preset) => link({ window: preset, from: null, to: null })}
        />
        <FilterSelect
          param="agent"
          label="Agent"
          value={params.agent}
          options={facets.agents}
          resets={['variant']}
        />
        <FilterSelect
          param="variant"
          label="Variant"
          value={params.variant}
          options={facets.variants}
        />
      </section>
      <ExitTiles
        groups={groups}
        selected={params.exitCategory}
        hrefFor={(c) => link({ exitCategory: c })}
      />
      <QuarantineCallout
        total={quarantined.total}
        runs={quarantined.runs}
        runHref={(runId) =>
          hrefWith(
            `/runs/${encodeURIComponent(runId)}`,
            params.project ? { project: params.project } : {},
            {},
          )
        }
      />
      <UnknownCallout
        runs={unknown}
        href={
          params.exitCategory === 'unknown' ? null : link({ exitCategory: 'unknown', flag: null })
        }
      />
      <FragmentCallout
        traces={fragments}
        href={params.flag === 'fragment' ? null : link({ flag: 'fragment', exitCategory: null })}
      />
      <CategoriesChart buckets={buckets} bucket={bucket} />
      <section className="home-runs" aria-labelledby="runs-title">
        <div className="home-runs-head">
          <h2 id="runs-title">Runs</h2>
          <ActiveFilters
            exitCategory={params.exitCategory}
            flag={params.flag}
            removeHref={(param) => link({ [param]: null })}
            clearHref={link({ exitCategory: null, flag: null })}
          />
        </div>
        <RunsTable
          runs={page.runs}
          sort={params.sort}
          order={params.order}
          project={params.project}
        />
        <Pager
          shown={page.runs.length}
          firstHref={params.cursor ? link({ cursor: null }) : null}
          nextHref={page.nextCursor ? link({ cursor: page.nextCursor }) : null}
        />
      </section>
    </main>
  );
}

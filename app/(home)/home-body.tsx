import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { loadSampleRunsIntoProject } from '@/samples/load-into-project';
import { categoriesOverTime, bucketFor } from '@/db/read/categories-over-time';
import { countFragments } from '@/db/read/count-fragments';
import { listDeriveFailures } from '@/db/read/derive-failures';
import { exitReasonGroups } from '@/db/read/exit-reason-groups';
import { loopPatterns } from '@/db/read/loop-patterns';
import type { LoopPatternJson } from '@/db/read/loop-patterns';
import { windowTotals } from '@/db/read/window-totals';
import { headlineNumbers, previousWindow } from '@/trajectory/headline-numbers';
import { countRunsFrom } from '@/db/read/count-new-runs';
import { listRuns } from '@/db/read/list-runs';
import { projectHasRuns } from '@/db/read/projects';
import type { ProjectListing } from '@/db/read/projects';
import { runFacets } from '@/db/read/run-facets';
import { runModels } from '@/db/read/run-models';
import type { Executor } from '@/db/sql';
import { AppError } from '@/lib/app-error';
import { projectName } from '@/lib/filters';
import { viewHref, viewQuery } from '@/lib/view-window';
import { EmptyProject } from '@/components/onboarding/empty-project';
import { ActiveFilters, filterText } from '@/components/runs/active-filters';
import { CategoriesChart } from '@/components/runs/categories-chart';
import { ExitTiles } from '@/components/runs/exit-tiles';
import { FilterSelect } from '@/components/runs/filter-select';
import { Pager } from '@/components/runs/pager';
import { RunsTable } from '@/components/runs/runs-table';
import { RunSearch } from '@/components/runs/run-search';
import { NewRunsPill } from '@/components/runs/new-runs-pill';
import { FragmentCallout } from '@/components/runs/fragment-callout';
import { QuarantineCallout } from '@/components/runs/quarantine-callout';
import { UnknownCallout } from '@/components/runs/unknown-callout';
import { TopPatterns } from '@/components/compare/top-patterns';
import { HeadlineNumbers, previousWindowText } from '@/components/runs/headline-numbers';
import { hrefWith } from '@/components/url/href';
import type { QueryPatch } from '@/components/url/href';
import { requireDashboardAction } from '../dashboard-guard';
import type { HomeQuery } from './search-params';

async function loadSampleRuns(formData: FormData): Promise<void> {
  'use server';
  // An action is a POST any page can make: it checks the door itself.
  await requireDashboardAction();
  const project = projectName.safeParse(formData.get('project') ?? 'default');
  if (!project.success) throw new AppError('bad_request', 'project: not a project name');
  await loadSampleRunsIntoProject(project.data);
  revalidatePath('/');
}

/** The wasted spend of one pattern (signature, kind and agent) in another window. */
async function previousWaste(
  db: Executor,
  projectId: string,
  window: { from: Date; to: Date },
  pattern: LoopPatternJson,
): Promise<number> {
  const [before] = await loopPatterns(db, {
    projectId,
    window,
    agent: pattern.agent ?? '',
    kind: pattern.kind,
    signature: pattern.signature,
    limit: 1,
  });
  return before?.wastedUsd ?? 0;
}

/** Everything on the home page that reads runs: it streams in behind the header. Every part
 * answers for the same filters: window, agent, variant, exit category and loop signal. */
export async function HomeBody({
  db,
  project,
  query,
}: {
  db: Executor;
  project: ProjectListing;
  query: HomeQuery;
}) {
  const { params, raw, window } = query;
  const link = (patch: QueryPatch) => hrefWith('/', raw, patch);
  const view = viewQuery(raw);

  if (!(await projectHasRuns(db, project.id))) {
    const requestHeaders = await headers();
    const host = requestHeaders.get('host') ?? '127.0.0.1:3000';
    const proto = requestHeaders.get('x-forwarded-proto') ?? 'http';
    return (
      <EmptyProject
        project={project.name}
        endpoint={`${proto}://${host}/v1/traces`}
        loadSampleRuns={loadSampleRuns}
      />
    );
  }

  // The tiles choose the exit category, so they count every category under the other filters.
  const scope = {
    projectId: project.id,
    window: { from: window.from, to: window.to },
    agent: params.agent,
    variant: params.variant,
    flag: params.flag,
  };
  const filtered = { ...scope, exitCategory: params.exitCategory };
  const bucket = bucketFor(window);
  // Search and the filters beside it narrow the list; the tiles and the chart keep the window.
  const searched = {
    q: params.q,
    verification: params.verification,
    model: params.model,
    costAbove: params.costAbove,
  };
  const searching = Object.values(searched).some((v) => v !== undefined && v !== '');
  const previous = { ...scope, window: previousWindow(scope.window) };
  const [
    groups,
    buckets,
    facets,
    fragments,
    quarantined,
    page,
    models,
    counted,
    patterns,
    totals,
    previousTotals,
  ] = await Promise.all([
    exitReasonGroups(db, scope),
    categoriesOverTime(db, { ...filtered, bucket, timeZone: window.timeZone }),
    runFacets(db, filtered),
    countFragments(db, filtered),
    listDeriveFailures(db, { projectId: project.id }),
    listRuns(db, { ...params, ...filtered, ...searched }),
    runModels(db, scope),
    countRunsFrom(db, { ...scope, from: window.from }),
    loopPatterns(db, {
      projectId: project.id,
      window: scope.window,
      agent: params.agent,
      limit: 3,
    }),
    windowTotals(db, scope),
    windowTotals(db, previous),
  ]);
  const top = patterns[0];
  const topBefore = top ? await previousWaste(db, project.id, previous.window, top) : 0;
  const patternsView = { ...view, agent: params.agent };
  const unknown = groups.find((g) => g.exitCategory === 'unknown')?.runs ?? 0;
  const filter = filterText(params.exitCategory, params.flag);

  return (
    <>
      <section className="home-filters" aria-label="Filters">
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
        <ActiveFilters
          exitCategory={params.exitCategory}
          flag={params.flag}
          removeHref={(param) => link({ [param]: null })}
          clearHref={link({ exitCategory: null, flag: null })}
        />
      </section>
      <HeadlineNumbers
        numbers={headlineNumbers(totals, previousTotals)}
        against={previousWindowText(window.to.getTime() - window.from.getTime())}
        costliest={
          top
            ? {
                label: top.label,
                wastedUsd: top.wastedUsd,
                previousWastedUsd: topBefore,
                href: viewHref('/patterns', patternsView, { signature: top.signature }),
              }
            : null
        }
      />
      <ExitTiles
        groups={groups}
        selected={params.exitCategory}
        hrefFor={(c) => link({ exitCategory: c })}
        note={params.flag ? filterText(undefined, params.flag) : null}
      />
      <TopPatterns
        patterns={patterns}
        hrefFor={(signature) => viewHref('/patterns', patternsView, { signature })}
        allHref={viewHref('/patterns', patternsView)}
      />
      <QuarantineCallout
        total={quarantined.total}
        runs={quarantined.runs}
        timeZone={window.timeZone}
        runHref={(runId) => viewHref(`/runs/${encodeURIComponent(runId)}`, view)}
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
      <CategoriesChart
        buckets={buckets}
        bucket={bucket}
        timeZone={window.timeZone}
        filter={filter}
      />
      <section className="home-runs" aria-labelledby="runs-title">
        <div className="home-runs-head">
          <h2 id="runs-title">Runs</h2>
          {filter ? <span className="muted">{filter}</span> : null}
        </div>
        <RunSearch
          raw={raw}
          values={searched}
          models={models}
          clearHref={
            searching
              ? link({ q: null, verification: null, model: null, costAbove: null, cursor: null })
              : null
          }
        />
        <NewRunsPill
          from={window.from.toISOString()}
          baseline={counted}
          project={params.project}
          agent={params.agent}
          variant={params.variant}
        />
        {/* No runs: one sentence says so, over no empty table. */}
        {page.runs.length === 0 ? (
          <p className="muted" role="status">
            {searching
              ? 'No run in this window matches the search.'
              : 'No run in this window matches these filters.'}
          </p>
        ) : (
          <RunsTable
            runs={page.runs}
            sort={params.sort}
            order={params.order}
            view={view}
            timeZone={window.timeZone}
          />
        )}
        <Pager
          shown={page.runs.length}
          firstHref={params.cursor ? link({ cursor: null }) : null}
          nextHref={page.nextCursor ? link({ cursor: page.nextCursor }) : null}
        />
      </section>
    </>
  );
}

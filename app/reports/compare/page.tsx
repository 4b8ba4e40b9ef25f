import { notFound } from 'next/navigation';
import { ComparisonTable } from '@/components/reports/comparison-table';
import { NameSelect, ReportForm } from '@/components/reports/report-form';
import { ReportHeader } from '@/components/reports/report-header';
import { ReportNotice } from '@/components/reports/report-notice';
import { VariantPanel } from '@/components/reports/variant-panel';
import styles from '@/components/reports/reports.module.css';
import { assignSeriesStyles } from '@/components/charts/palette';
import { ViewBar } from '@/components/view/view-bar';
import { viewHref } from '@/lib/view-window';
import { agentVariantRuns } from '@/db/read/agent-variants';
import { compareVariants } from '@/db/read/variant-comparison';
import { reportDimensions } from '@/db/read/weekly-report';
import { chooseComparison } from '@/trajectory/report-compare-defaults';
import { reportContext } from '../page-context';
import type { SearchParams } from '../page-context';
import { reportView } from '../report-view';
import { ALL_AGENTS, compareParams, weeksOf } from '@/lib/report-params';

export const dynamic = 'force-dynamic';

const names = (agents: (string | null)[]) =>
  agents.map((a) => a ?? '(no agent)').join(', ') || 'no agent';

export default async function CompareVariantsPage({
  searchParams,
}: {
  searchParams: SearchParams;
}) {
  const context = await reportContext(searchParams, compareParams);
  // A link Loopscope cannot answer is a 404 whose page (../not-found.tsx) names every problem.
  if (!context.ok) notFound();
  const { params, db, project, query, now } = context;
  const { window, view } = await reportView(query, now);
  const [pairs, dimensions] = await Promise.all([
    agentVariantRuns(db, { projectId: project.id, window }),
    reportDimensions(db, { projectId: project.id, ...weeksOf(window) }),
  ]);
  const choice = chooseComparison(pairs, params, ALL_AGENTS);
  const { a, b } = choice;
  const comparison =
    a !== undefined && b !== undefined
      ? await compareVariants(db, {
          projectId: project.id,
          window,
          agent: choice.agent ?? undefined,
          a,
          b,
        })
      : null;
  const maxOf = (pick: (c: NonNullable<typeof comparison>['a']) => number[]) =>
    comparison ? Math.max(...pick(comparison.a), ...pick(comparison.b)) : 0;
  // Each variant in its own colour, the same it has on the weekly report grouped by variant.
  const colors = assignSeriesStyles([...dimensions.variants, a ?? null, b ?? null]);
  const agents = [...new Set(pairs.map((p) => p.agent).filter((x): x is string => x !== null))];

  return (
    <main id="main" className={`page ${styles.reports}`}>
      <ReportHeader current="compare" title="Compare two variants" view={view}>
        <p className="muted">
          Two configurations of a loop side by side, from the runs that started in the window: pass
          rate, cost per verified unit, and the whole distribution of cost and steps per run, with
          the p95 tail where runaway loops live. Compare variants of one agent: different agents
          differ by more than their configuration.
        </p>
      </ReportHeader>
      <ViewBar path="/reports/compare" query={query} window={window} />
      <ReportForm
        action="/reports/compare"
        keep={{ ...view, agent: undefined }}
        submitLabel="Compare"
      >
        <NameSelect
          label="Agent"
          name="agent"
          value={choice.agent ?? ALL_AGENTS}
          options={agents}
          anyLabel="All agents"
          anyValue={ALL_AGENTS}
        />
        <NameSelect label="Variant A" name="a" value={a} options={choice.variants} />
        <NameSelect label="Variant B" name="b" value={b} options={choice.variants} />
      </ReportForm>
      {choice.agentDefaulted && (
        <p className="muted" role="note">
          Showing agent {choice.agent}: the agent with the most runs that has two variants.
        </p>
      )}
      {choice.mixedAgents && (
        <ReportNotice danger>
          The two sides come from different agents: A ({a}) ran on {names(choice.agentsOf.a)}, B (
          {b}) on {names(choice.agentsOf.b)}. The difference mixes agents with variants; choose one
          agent to compare like with like.
        </ReportNotice>
      )}
      {comparison === null ? (
        <ReportNotice>
          A comparison needs two variants (`loop.variant`)
          {choice.agent ? ` of agent ${choice.agent}` : ''} with runs in the window; found{' '}
          {choice.variants.length === 0 ? 'none' : choice.variants.join(', ')}.
        </ReportNotice>
      ) : (
        <>
          {comparison.a.unpricedRuns + comparison.b.unpricedRuns > 0 && (
            <ReportNotice>
              Some runs used a model without a price: their spend is incomplete, so costs are lower
              bounds. <a href={viewHref('/prices', view)}>See prices</a>.
            </ReportNotice>
          )}
          <section className={`panel ${styles.section}`} aria-labelledby="compare-summary">
            <h2 id="compare-summary">Side by side</h2>
            <ComparisonTable comparison={comparison} />
          </section>
          <div className={styles.grid2}>
            {(['A', 'B'] as const).map((side) => (
              <VariantPanel
                key={side}
                side={side}
                stats={side === 'A' ? comparison.a : comparison.b}
                color={colors.get((side === 'A' ? a : b) ?? null)?.color ?? 'var(--series-0)'}
                costLayout={comparison.costLayout}
                stepLayout={comparison.stepLayout}
                maxCostCount={maxOf((s) => s.cost.histogram)}
                maxStepCount={maxOf((s) => s.steps.histogram)}
              />
            ))}
          </div>
        </>
      )}
    </main>
  );
}

import { ComparisonTable } from '@/components/reports/comparison-table';
import { NameSelect, ReportForm } from '@/components/reports/report-form';
import { ReportHeader, ReportProblem } from '@/components/reports/report-header';
import { ReportNotice } from '@/components/reports/report-notice';
import { VariantPanel } from '@/components/reports/variant-panel';
import styles from '@/components/reports/reports.module.css';
import { compareVariants } from '@/db/read/variant-comparison';
import { reportDimensions } from '@/db/read/weekly-report';
import { reportContext } from '../page-context';
import type { SearchParams } from '../page-context';
import { compareParams, runWindow, weeksOf } from '../search-params';

export const dynamic = 'force-dynamic';

const COLORS = { A: 'var(--series-0)', B: 'var(--series-1)' };

export default async function CompareVariantsPage({
  searchParams,
}: {
  searchParams: SearchParams;
}) {
  const context = await reportContext(searchParams, compareParams);
  const title = 'Compare two variants';
  if (!context.ok) {
    return (
      <ReportProblem
        current="compare"
        title={title}
        project={context.project}
        message={context.message}
      />
    );
  }
  const { params, db, project, projectParam, now } = context;
  const window = runWindow(params, now);
  const dimensions = await reportDimensions(db, {
    projectId: project.id,
    ...weeksOf(window),
  });
  // Without a choice, the two variants with the most runs.
  const a = params.a ?? dimensions.variants[0];
  const b = params.b ?? dimensions.variants.find((v) => v !== a);
  const comparison =
    a !== undefined && b !== undefined
      ? await compareVariants(db, { projectId: project.id, window, agent: params.agent, a, b })
      : null;
  const maxOf = (pick: (c: NonNullable<typeof comparison>['a']) => number[]) =>
    comparison ? Math.max(...pick(comparison.a), ...pick(comparison.b)) : 0;

  return (
    <main id="main" className={`page ${styles.reports}`}>
      <ReportHeader current="compare" title={title} project={projectParam}>
        <p className="muted">
          Two configurations of a loop side by side, from the runs that started in the window: pass
          rate, cost per verified unit, and the whole distribution of cost and steps per run, with
          the p95 tail where runaway loops live.
        </p>
      </ReportHeader>
      <ReportForm
        action="/reports/compare"
        from={window.from}
        to={window.to}
        keep={{ project: projectParam }}
        submitLabel="Compare"
      >
        <NameSelect label="Variant A" name="a" value={a} options={dimensions.variants} />
        <NameSelect label="Variant B" name="b" value={b} options={dimensions.variants} />
        <NameSelect
          label="Agent"
          name="agent"
          value={params.agent}
          options={dimensions.agents}
          anyLabel="All agents"
        />
      </ReportForm>
      {comparison === null ? (
        <ReportNotice>
          A comparison needs two variants (`loop.variant`) with runs in the window; found{' '}
          {dimensions.variants.length === 0 ? 'none' : dimensions.variants.join(', ')}.
        </ReportNotice>
      ) : (
        <>
          {comparison.a.unpricedRuns + comparison.b.unpricedRuns > 0 && (
            <ReportNotice>
              Some runs used a model without a price: their spend is incomplete, so costs are lower
              bounds. <a href="/prices">See prices</a>.
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
                color={COLORS[side]}
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

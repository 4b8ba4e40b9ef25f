import { ReportForm } from '@/components/reports/report-form';
import { GroupBySwitch } from '@/components/reports/group-by-switch';
import { ReportHeader, ReportProblem } from '@/components/reports/report-header';
import { ReportNotice } from '@/components/reports/report-notice';
import { WeeklyChart } from '@/components/reports/weekly-chart';
import { WeeklyTable } from '@/components/reports/weekly-table';
import styles from '@/components/reports/reports.module.css';
import { hrefWith } from '@/components/url/href';
import { weeklyTotals } from '@/db/read/weekly-report';
import { weeklyRows, weeklySeries } from '@/trajectory/report-weekly';
import { reportContext } from '../page-context';
import type { SearchParams } from '../page-context';
import { weeklyPageParams, weekWindow } from '../search-params';

export const dynamic = 'force-dynamic';

export default async function WeeklyReportPage({ searchParams }: { searchParams: SearchParams }) {
  const context = await reportContext(searchParams, weeklyPageParams);
  const title = 'Weekly cost per verified unit';
  if (!context.ok) {
    return (
      <ReportProblem
        current="weekly"
        title={title}
        project={context.project}
        message={context.message}
      />
    );
  }
  const { params, db, project, projectParam, now } = context;
  const window = weekWindow(params, now);
  const totals = await weeklyTotals(db, {
    projectId: project.id,
    firstWeek: window.firstWeek,
    lastWeek: window.lastWeek,
    groupBy: params.groupBy,
  });
  const rows = weeklyRows(totals);
  const series = weeklySeries(rows, window.weeks);
  const query = { ...context.query, groupBy: params.groupBy };
  const pricesHref = hrefWith('/prices', projectParam ? { project: projectParam } : {}, {});
  const unpriced = rows.reduce((sum, r) => sum + r.unpricedRuns, 0);

  return (
    <main id="main" className={`page ${styles.reports}`}>
      <ReportHeader current="weekly" title={title} project={projectParam}>
        <p className="muted">
          Total spend of all runs, failures included, divided by the units of work that a check
          against the environment verified. ISO weeks (Monday to Sunday, UTC) of each run&apos;s
          start; the whole weeks the window touches are shown.
        </p>
      </ReportHeader>
      <div className={styles.controls}>
        <ReportForm
          action="/reports/weekly"
          from={window.from}
          to={window.to}
          keep={{ project: projectParam, groupBy: params.groupBy }}
          submitLabel="Show these weeks"
        />
        <GroupBySwitch
          current={params.groupBy}
          hrefFor={{
            agent: hrefWith('/reports/weekly', query, { groupBy: 'agent' }),
            variant: hrefWith('/reports/weekly', query, { groupBy: 'variant' }),
            model: hrefWith('/reports/weekly', query, { groupBy: 'model' }),
          }}
        />
        <a className="button" href={hrefWith('/reports/weekly/export', query, {})} download>
          Download CSV
        </a>
      </div>
      {unpriced > 0 && (
        <ReportNotice>
          {unpriced} run{unpriced === 1 ? '' : 's'} in these weeks used a model without a price:
          their spend is incomplete, so the cost per verified unit is a lower bound where marked.{' '}
          <a href={pricesHref}>See prices</a>.
        </ReportNotice>
      )}
      {rows.length === 0 ? (
        <ReportNotice>
          No runs started in {window.weeks.length === 1 ? 'this week' : 'these weeks'}. Widen the
          window, or send traces to /v1/traces.
        </ReportNotice>
      ) : (
        <>
          <section className={`panel ${styles.section}`} aria-labelledby="weekly-chart-title">
            <div className={styles.sectionHead}>
              <h2 id="weekly-chart-title">Cost per verified unit by week</h2>
              <p className="muted">A gap is a week with nothing verified (no ratio).</p>
            </div>
            <WeeklyChart series={series} groupBy={params.groupBy} />
          </section>
          <section className={`panel ${styles.section}`} aria-labelledby="weekly-table-title">
            <h2 id="weekly-table-title">Weeks</h2>
            <WeeklyTable rows={rows} groupBy={params.groupBy} pricesHref={pricesHref} />
          </section>
        </>
      )}
    </main>
  );
}

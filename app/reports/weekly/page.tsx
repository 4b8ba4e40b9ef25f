import Link from 'next/link';
import { notFound } from 'next/navigation';
import { GroupBySwitch } from '@/components/reports/group-by-switch';
import { ReportHeader } from '@/components/reports/report-header';
import { ReportNotice } from '@/components/reports/report-notice';
import { WeeklyChart } from '@/components/reports/weekly-chart';
import { WeeklyTable } from '@/components/reports/weekly-table';
import styles from '@/components/reports/reports.module.css';
import { hrefWith } from '@/components/url/href';
import { ViewBar } from '@/components/view/view-bar';
import { viewHref } from '@/lib/view-window';
import { reportDimensions, weeklyTotals } from '@/db/read/weekly-report';
import { weeklyRows, weeklySeries } from '@/trajectory/report-weekly';
import { WEEK_MS, isoWeekOfDate } from '@/trajectory/report-weeks';
import { reportContext } from '../page-context';
import type { SearchParams } from '../page-context';
import { reportView } from '../report-view';
import { weeklyPageParams, weekWindow } from '@/lib/report-params';

export const dynamic = 'force-dynamic';

const DAY_MS = 86_400_000;
const shortDay = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  weekday: 'short',
  month: 'short',
  day: 'numeric',
});

export default async function WeeklyReportPage({ searchParams }: { searchParams: SearchParams }) {
  const context = await reportContext(searchParams, weeklyPageParams);
  // A link Loopscope cannot answer is a 404 whose page (../not-found.tsx) names every problem.
  if (!context.ok) notFound();
  const { params, db, project, query, now } = context;
  const { window, view } = await reportView(query, now);
  const weeks = weekWindow(window, now);
  const range = { projectId: project.id, firstWeek: weeks.firstWeek, lastWeek: weeks.lastWeek };
  const [totals, dimensions] = await Promise.all([
    weeklyTotals(db, { ...range, groupBy: params.groupBy }),
    reportDimensions(db, range),
  ]);
  const domain = dimensions[`${params.groupBy}s` as const];
  const rows = weeklyRows(totals);
  const series = weeklySeries(rows, weeks.weeks);
  const here = { ...query, groupBy: params.groupBy };
  const pricesHref = viewHref('/prices', view);
  const unpriced = rows.reduce((sum, r) => sum + r.unpricedRuns, 0);
  const lastSunday = Date.parse(`${weeks.lastWeek}T00:00:00Z`) + WEEK_MS - DAY_MS;
  const span = `${isoWeekOfDate(weeks.firstWeek).label} (from ${shortDay.format(Date.parse(`${weeks.firstWeek}T00:00:00Z`))}) to ${isoWeekOfDate(weeks.lastWeek).label} (to ${shortDay.format(lastSunday)})`;

  return (
    <main id="main" className={`page ${styles.reports}`}>
      <ReportHeader current="weekly" title="Weekly cost per verified unit" view={view}>
        <p className="muted">
          Total spend of all runs, failures included, divided by the units of work that a check
          against the environment verified. ISO weeks (Monday to Sunday, UTC) of each run&apos;s
          start; the whole weeks the window touches are shown.
        </p>
      </ReportHeader>
      <ViewBar path="/reports/weekly" query={here} window={window}>
        <GroupBySwitch
          current={params.groupBy}
          hrefFor={{
            agent: hrefWith('/reports/weekly', here, { groupBy: 'agent' }),
            variant: hrefWith('/reports/weekly', here, { groupBy: 'variant' }),
            model: hrefWith('/reports/weekly', here, { groupBy: 'model' }),
          }}
        />
        <div className={styles.field}>
          <span id="scale-label">Scale</span>
          <div className={styles.segmented} role="group" aria-labelledby="scale-label">
            {(['linear', 'log'] as const).map((s) => (
              <Link
                key={s}
                className={styles.segment}
                href={hrefWith('/reports/weekly', here, { scale: s === 'linear' ? null : s })}
                aria-current={params.scale === s ? 'true' : undefined}
              >
                {s === 'linear' ? 'Linear' : 'Log'}
              </Link>
            ))}
          </div>
        </div>
        <a className="button" href={hrefWith('/reports/weekly/export', here, {})} download>
          Download CSV
        </a>
      </ViewBar>
      <p className="muted" style={{ margin: 0 }}>
        Weeks {span} (UTC).
      </p>
      {unpriced > 0 && (
        <ReportNotice>
          {unpriced} run{unpriced === 1 ? '' : 's'} in these weeks used a model without a price:
          their spend is incomplete, so the cost per verified unit is a lower bound where marked.{' '}
          <a href={pricesHref}>See prices</a>.
        </ReportNotice>
      )}
      {rows.length === 0 ? (
        <ReportNotice>
          No runs started in {weeks.weeks.length === 1 ? 'this week' : 'these weeks'}. Widen the
          window, or send traces to /v1/traces.
        </ReportNotice>
      ) : (
        <>
          <section className={`panel ${styles.section}`} aria-labelledby="weekly-chart-title">
            <div className={styles.sectionHead}>
              <h2 id="weekly-chart-title">Cost per verified unit by week</h2>
              <p className="muted">
                A gap is a week with nothing verified (no ratio)
                {params.scale === 'log' ? ' or, on the log scale, a $0 one' : ''}.
              </p>
            </div>
            <WeeklyChart
              series={series}
              groupBy={params.groupBy}
              scale={params.scale}
              domain={domain}
            />
          </section>
          <section className={`panel ${styles.section}`} aria-labelledby="weekly-table-title">
            <h2 id="weekly-table-title">Weeks</h2>
            <WeeklyTable
              rows={rows}
              groupBy={params.groupBy}
              pricesHref={pricesHref}
              domain={domain}
            />
          </section>
        </>
      )}
    </main>
  );
}

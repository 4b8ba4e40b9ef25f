import { weeklyTotals } from '@/db/read/weekly-report';
import { weeklyReportParams, weekWindow } from '@/lib/report-params';
import { csvResponse, toWeeklyJson, weeklyCsv, weeklyFilename } from '@/lib/weekly-export';
import { weeklyRows } from '@/trajectory/report-weekly';
import { apiRead } from '../../../../read-door';

export const dynamic = 'force-dynamic';

/** Cost per verified unit per ISO week and group, from the rollup derivation keeps current. */
export const GET = apiRead(
  { query: weeklyReportParams, settle: 'project' },
  async ({ db, projectId, query }) => {
    const window = weekWindow(query);
    const totals = await weeklyTotals(db, {
      projectId,
      firstWeek: window.firstWeek,
      lastWeek: window.lastWeek,
      groupBy: query.groupBy,
    });
    const weeks = weeklyRows(totals).map(toWeeklyJson);
    if (query.format === 'csv') {
      return csvResponse(
        weeklyCsv(weeks),
        weeklyFilename(window.firstWeek, window.lastWeek, query.groupBy),
      );
    }
    return { weeks };
  },
);

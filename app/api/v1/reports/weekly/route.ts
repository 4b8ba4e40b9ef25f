import { weeklyTotals } from '@/db/read/weekly-report';
import { weeklyReportParams, weekWindow } from '@/app/reports/search-params';
import { csvResponse, toWeeklyJson, weeklyCsv, weeklyFilename } from '@/app/reports/weekly-export';
import { requireDatabase, settle } from '@/server/runtime';
import { weeklyRows } from '@/trajectory/report-weekly';
import { respond } from '../../../../http';
import { authenticate } from '../../auth';
import { parseQuery } from '../../parse';

export const dynamic = 'force-dynamic';

/** Cost per verified unit per ISO week and group, from the rollup ingest keeps current. */
export async function GET(request: Request): Promise<Response> {
  return respond(async () => {
    const projectId = await authenticate(request);
    await settle(projectId);
    const params = parseQuery(request, weeklyReportParams);
    const window = weekWindow(params);
    const totals = await weeklyTotals(requireDatabase(), {
      projectId,
      firstWeek: window.firstWeek,
      lastWeek: window.lastWeek,
      groupBy: params.groupBy,
    });
    const weeks = weeklyRows(totals).map(toWeeklyJson);
    if (params.format === 'csv') {
      const filename = weeklyFilename(window.firstWeek, window.lastWeek, params.groupBy);
      return csvResponse(weeklyCsv(weeks), filename);
    }
    return { weeks };
  });
}

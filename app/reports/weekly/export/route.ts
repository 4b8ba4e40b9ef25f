import { weeklyTotals } from '@/db/read/weekly-report';
import { weeklyRows } from '@/trajectory/report-weekly';
import { errorResponse } from '../../../http';
import { reportContext } from '../../page-context';
import { weeklyPageParams, weekWindow } from '../../search-params';
import { csvResponse, toWeeklyJson, weeklyCsv, weeklyFilename } from '../../weekly-export';

export const dynamic = 'force-dynamic';

/** The page's CSV download: the same rows and columns as the API's `format=csv`. */
export async function GET(request: Request): Promise<Response> {
  try {
    const search = Object.fromEntries(new URL(request.url).searchParams);
    const context = await reportContext(Promise.resolve(search), weeklyPageParams);
    if (!context.ok)
      return Response.json(
        { error: { code: 'bad_request', message: context.message } },
        { status: 400 },
      );
    const window = weekWindow(context.params, context.now);
    const totals = await weeklyTotals(context.db, {
      projectId: context.project.id,
      firstWeek: window.firstWeek,
      lastWeek: window.lastWeek,
      groupBy: context.params.groupBy,
    });
    const csv = weeklyCsv(weeklyRows(totals).map(toWeeklyJson));
    return csvResponse(
      csv,
      weeklyFilename(window.firstWeek, window.lastWeek, context.params.groupBy),
    );
  } catch (error) {
    return errorResponse(error);
  }
}

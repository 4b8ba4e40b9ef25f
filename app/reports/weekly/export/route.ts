import { weeklyTotals } from '@/db/read/weekly-report';
import { weeklyRows } from '@/trajectory/report-weekly';
import { errorResponse } from '../../../http';
import { reportContext } from '../../page-context';
import { reportView } from '../../report-view';
import { weeklyPageParams, weekWindow } from '@/lib/report-params';
import {
  WEEKLY_PAGE_COLUMNS,
  csvResponse,
  toWeeklyPageRow,
  weeklyCsv,
  weeklyFilename,
} from '@/lib/weekly-export';

export const dynamic = 'force-dynamic';

/** The page's CSV download: the weeks and columns the page shows, named by the page's window. */
export async function GET(request: Request): Promise<Response> {
  try {
    const search = Object.fromEntries(new URL(request.url).searchParams);
    const context = await reportContext(Promise.resolve(search), weeklyPageParams);
    if (!context.ok)
      return Response.json(
        { error: { code: 'bad_request', message: context.message } },
        { status: 400 },
      );
    const { window } = await reportView(context.query, context.now);
    const weeks = weekWindow(window, context.now);
    const totals = await weeklyTotals(context.db, {
      projectId: context.project.id,
      firstWeek: weeks.firstWeek,
      lastWeek: weeks.lastWeek,
      groupBy: context.params.groupBy,
    });
    const rows = weeklyRows(totals).map((r) => toWeeklyPageRow(r, context.params.groupBy));
    return csvResponse(
      weeklyCsv(rows, WEEKLY_PAGE_COLUMNS),
      weeklyFilename(weeks.firstWeek, weeks.lastWeek, context.params.groupBy),
    );
  } catch (error) {
    return errorResponse(error);
  }
}

// What every report page does first, through the read door: the report's zod schema over the URL,
// the project (`?project=`, else `default`), its runs settled. A bad parameter or an unknown
// project is a list of problems for the page to answer 404 with, never an exception.
import type { z } from 'zod';
import type { ProjectListing } from '@/db/read/projects';
import type { Database } from '@/db/client';
import { dashboardRead } from '../read-door';
import { parseReportQuery } from '@/lib/report-params';

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export type ReportContext<T> =
  | { ok: false; message: string; problems: string[] }
  | {
      ok: true;
      params: T;
      db: Database;
      project: ProjectListing;
      projectParam?: string;
      /** The parameters as the URL gave them, for links that change one thing. */
      query: Record<string, string>;
      timeZone: string;
      /** The request's one "now", for default windows and ages. */
      now: Date;
    };

export async function reportContext<T extends z.ZodType>(
  searchParams: SearchParams,
  schema: T,
): Promise<ReportContext<z.infer<T>>> {
  const read = await dashboardRead(searchParams, {
    parse: (search) => {
      const parsed = parseReportQuery(schema, search);
      return parsed.ok ? parsed : { ok: false, problems: parsed.problems };
    },
    project: (params: z.infer<T>) => (params as { project?: string }).project,
    settle: 'project',
  });
  if (!read.ok) return { ok: false, message: read.problems.join('; '), problems: read.problems };
  return {
    ok: true,
    params: read.data,
    db: read.db,
    project: read.project,
    projectParam: read.search.project,
    query: read.search,
    timeZone: read.timeZone,
    now: read.now,
  };
}

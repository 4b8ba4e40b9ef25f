// What every report page does first: read the URL through the report's zod schema, pick the
// project (`?project=`, else `default`), and hand back the database. A bad parameter is a message
// for the page to show, never an exception.
import type { z } from 'zod';
import { chooseProject } from '@/app/current-project';
import type { ProjectListing } from '@/db/read/projects';
import type { Database } from '@/db/client';
import { searchParamsObject } from '@/lib/filters';
import { requireDatabase } from '@/server/runtime';
import { parseReportQuery } from './search-params';

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export type ReportContext<T> =
  | { ok: false; message: string; problems: string[]; project?: string }
  | {
      ok: true;
      params: T;
      db: Database;
      project: ProjectListing;
      projectParam?: string;
      /** The parameters as the URL gave them, for links that change one thing. */
      query: Record<string, string>;
      /** The request's one "now", for default windows and ages. */
      now: Date;
    };

export async function reportContext<T extends z.ZodType>(
  searchParams: SearchParams,
  schema: T,
): Promise<ReportContext<z.infer<T>>> {
  const raw = searchParamsObject(await searchParams);
  const query = { ...raw };
  const parsed = parseReportQuery(schema, raw);
  if (!parsed.ok) {
    return { ok: false, message: parsed.message, problems: parsed.problems, project: raw.project };
  }
  const db = requireDatabase();
  const choice = await chooseProject(db, raw.project);
  if (!choice.current) {
    const message = choice.missing
      ? `project: no project is named ${JSON.stringify(choice.missing)}`
      : 'project: there is no project yet; send traces to /v1/traces first';
    return { ok: false, message, problems: [message] };
  }
  return {
    ok: true,
    params: parsed.data,
    db,
    project: choice.current,
    projectParam: raw.project,
    query,
    now: new Date(),
  };
}

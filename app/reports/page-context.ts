// What every report page does first: read the URL through the report's zod schema, pick the
// project (`?project=`, else `default`), and hand back the database. A bad parameter is a message
// for the page to show, never an exception.
import type { z } from 'zod';
import { chooseProject } from '@/app/current-project';
import type { ProjectListing } from '@/db/read/projects';
import type { Database } from '@/db/client';
import { searchParamsObject } from '@/lib/filters';
import { requireDatabase } from '@/server/runtime';
import { parsePageParams } from './search-params';

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export type ReportContext<T> =
  | { ok: false; message: string; project?: string }
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

const DAY_MS = 86_400_000;

export async function reportContext<T extends z.ZodType>(
  searchParams: SearchParams,
  schema: T,
): Promise<ReportContext<z.infer<T>>> {
  const raw = searchParamsObject(await searchParams);
  const query = { ...raw };
  // The forms send whole days and `to` names the last day included: it ends at the next midnight.
  if (raw.to && /^\d{4}-\d{2}-\d{2}$/.test(raw.to) && !Number.isNaN(Date.parse(raw.to))) {
    raw.to = new Date(Date.parse(raw.to) + DAY_MS).toISOString();
  }
  const parsed = parsePageParams(schema, raw);
  if (!parsed.ok) return { ok: false, message: parsed.message, project: raw.project };
  const db = requireDatabase();
  const choice = await chooseProject(db, raw.project);
  if (!choice.current) {
    return {
      ok: false,
      message: choice.missing
        ? `project: no project is named ${JSON.stringify(choice.missing)}`
        : 'project: there is no project yet; send traces to /v1/traces first',
    };
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

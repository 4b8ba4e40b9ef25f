// The one way into a read, for each kind of caller: an API route (`apiRead`: the bearer key's
// project), a dashboard page (`dashboardRead`: the session and Host, the reader's time zone) or
// a dashboard UI route (`dashboardRequestRead`). Each does the same steps in the same order:
// who is asking, the path, query and body parsed with zod (every problem named), the runs the read
// will show settled (derived up to every committed span), then the read itself. A route or page
// cannot forget a step or take them out of order, because it only supplies the parts.
import type { z } from 'zod';
import type { Database } from '@/db/client';
import { listProjects } from '@/db/read/projects';
import type { ProjectListing } from '@/db/read/projects';
import { AppError } from '@/lib/app-error';
import { parseSearch, runIdProblem, searchParamsObject } from '@/lib/filters';
import { chooseTimeZone } from '@/lib/view-window';
import { requireDatabase, requireReadDatabase, settle } from '@/server/runtime';
import { authenticate } from './api/v1/auth';
import { requireDashboardPage, requireDashboardRequest } from './dashboard-guard';
import { respond } from './http';
import { pageTimeZone } from './page-time-zone';

/** What a read settles first: its project's marked runs, the runs it shows, or nothing. */
export type SettleScope<I> =
  'project' | 'nothing' | ((input: I) => { runId: string } | { runIds: string[] });

/** The run ids a settle scope names. */
function scopeRunIds(scope: { runId: string } | { runIds: string[] }): string[] {
  return 'runIds' in scope ? scope.runIds : [scope.runId];
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface ApiReadSpec<Q, P, B> {
  /** The query string's schema (parsed with the edges' text checks). */
  query?: Q;
  /** The path's dynamic segments; a `runId` gets the run id checks. */
  params?: P;
  /** The JSON body's schema (POST). */
  body?: B;
  settle: SettleScope<{ params: Out<P>; query: Out<Q>; body: Out<B> }>;
  /**
   * Wait up to this long for the project's spooled requests to be stored before the read, even
   * when many wait (the guard: its answer must count the step its caller just exported).
   */
  waitForSpoolMs?: number;
}

export interface ApiReadInput<Q, P, B> {
  projectId: string;
  db: Database;
  query: Out<Q>;
  params: Out<P>;
  body: Out<B>;
}

type RouteContext = { params?: Promise<Record<string, string>> } | undefined;

export function apiRead<
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(
  spec: ApiReadSpec<Q, P, B>,
  read: (input: ApiReadInput<Q, P, B>) => Promise<unknown>,
): (request: Request, context: RouteContext) => Promise<Response> {
  return (request, context) =>
    respond(async () => {
      const projectId = await authenticate(request);
      // Next hands static routes no params at all.
      const params = parseParams(spec.params, (await context?.params) ?? {});
      const query = spec.query ? parseQuery(spec.query, request) : undefined;
      const body = spec.body ? await parseBody(spec.body, request) : undefined;
      if (spec.settle === 'project') await settle(projectId);
      else if (spec.settle !== 'nothing') {
        const scope = spec.settle({ params, query, body } as Parameters<typeof spec.settle>[0]);
        const runIds = scopeRunIds(scope);
        for (const runId of runIds) {
          const problem = runIdProblem(runId);
          if (problem) throw new AppError('bad_request', problem);
        }
        for (const runId of runIds) {
          await settle(projectId, runId, { waitForSpoolMs: spec.waitForSpoolMs });
        }
      }
      const db = requireDatabase();
      return read({ projectId, db, query, params, body } as ApiReadInput<Q, P, B>);
    });
}

function parseParams<P>(schema: Schema | undefined, raw: Record<string, string>): Out<P> {
  if (typeof raw.runId === 'string') {
    const problem = runIdProblem(raw.runId);
    if (problem) throw new AppError('bad_request', problem);
  }
  if (!schema) return undefined as Out<P>;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError('bad_request', describeIssues(parsed.error));
  return parsed.data as Out<P>;
}

function parseQuery<S extends Schema>(schema: S, request: Request): z.output<S> {
  const result = parseSearch(schema, new URL(request.url).searchParams);
  if (!result.ok) throw new AppError('bad_request', result.message);
  return result.data;
}

async function parseBody<S extends Schema>(schema: S, request: Request): Promise<z.output<S>> {
  const json: unknown = await request.json().catch(() => undefined);
  if (json === undefined) throw new AppError('bad_request', 'send a JSON body');
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new AppError('bad_request', describeIssues(parsed.error));
  return parsed.data;
}

/** Every problem, each with the field it is in. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
    .join('; ');
}

/** The URL's query as a page reads it: pure, so a not-found page can name the same problems. */
export type PageParse<T> = (
  search: Record<string, string>,
  context: { now: Date; timeZone: string },
) => { ok: true; data: T } | { ok: false; problems: string[] };

export interface DashboardReadSpec<T> {
  parse: PageParse<T>;
  /** The project the query names (`?project=`), else `default`, else the first. */
  project: (data: T) => string | undefined;
  settle: SettleScope<T>;
}

export type DashboardRead<T> =
  | { ok: false; problems: string[] }
  | {
      ok: true;
      db: Database;
      data: T;
      project: ProjectListing;
      projects: ProjectListing[];
      /** The query as the URL gave it, for links that change one thing. */
      search: Record<string, string>;
      timeZone: string;
      /** The request's one "now", for default windows and ages. */
      now: Date;
    };

/**
 * A dashboard page's way in: the door (session and Host), the reader's time zone, the query
 * parsed, the project chosen, then what the page will show settled. A problem (a bad parameter,
 * an unknown project) comes back before anything streams, so the page can answer 404 with it.
 */
export async function dashboardRead<T>(
  searchParams: Promise<Record<string, string | string[] | undefined>>,
  spec: DashboardReadSpec<T>,
): Promise<DashboardRead<T>> {
  await requireDashboardPage();
  const search = searchParamsObject(await searchParams);
  const timeZone = await pageTimeZone(search);
  const now = new Date();
  const parsed = spec.parse(search, { now, timeZone });
  if (!parsed.ok) return parsed;
  return chooseAndSettle(parsed.data, spec, { search, timeZone, now });
}

/** The same for a UI route (the dashboard's own JSON), read from the request itself. */
export async function dashboardRequestRead<T>(
  request: Request,
  spec: DashboardReadSpec<T>,
): Promise<DashboardRead<T>> {
  requireDashboardRequest(request);
  const search = searchParamsObject(new URL(request.url).searchParams);
  const timeZone = chooseTimeZone(search.tz, undefined);
  const now = new Date();
  const parsed = spec.parse(search, { now, timeZone });
  if (!parsed.ok) return parsed;
  return chooseAndSettle(parsed.data, spec, { search, timeZone, now });
}

async function chooseAndSettle<T>(
  data: T,
  spec: DashboardReadSpec<T>,
  context: { search: Record<string, string>; timeZone: string; now: Date },
): Promise<DashboardRead<T>> {
  // The dashboard's reads go to the standby when one is set and keeps up (DATABASE_READ_URL);
  // settling derives on the primary, so what it derived shows once the standby has replayed it.
  const db = requireReadDatabase();
  const requested = spec.project(data);
  const projects = await listProjects(db);
  const project =
    requested !== undefined
      ? projects.find((p) => p.name === requested)
      : (projects.find((p) => p.name === 'default') ?? projects[0]);
  if (!project) {
    return {
      ok: false,
      problems: [
        requested !== undefined
          ? `project: no project is named ${JSON.stringify(requested)}`
          : 'project: there is no project yet; send traces to /v1/traces first',
      ],
    };
  }
  if (spec.settle === 'project') await settle(project.id);
  else if (spec.settle !== 'nothing') {
    for (const runId of scopeRunIds(spec.settle(data))) await settle(project.id, runId);
  }
  return { ok: true, db, data, project, projects, ...context };
}

/** A page's parse from a zod schema of its query (`parseSearch`'s text and date checks first). */
export function schemaParse<S extends z.ZodType>(schema: S): PageParse<z.output<S>> {
  return (search) => {
    const parsed = parseSearch(schema, search);
    return parsed.ok ? parsed : { ok: false, problems: parsed.problems };
  };
}

// The one way into a read, for each kind of caller. An API route: the bearer key's project, then
// the path, query and body parsed with zod (every problem a 400 naming it), then the runs the read
// will show settled (derived up to every committed span), then the read itself. A route cannot
// forget a step or take them out of order, because it only supplies the parts.
import type { z } from 'zod';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/app-error';
import { parseSearch, runIdProblem } from '@/lib/filters';
import { requireDatabase, settle } from '@/server/runtime';
import { respond } from './http';
import { authenticate } from './api/v1/auth';

/** What a read settles first: its project's marked runs, one run, or nothing it would show. */
export type SettleScope<I> = 'project' | 'nothing' | ((input: I) => { runId: string });

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
}

export interface ApiReadInput<Q, P, B> {
  projectId: string;
  db: Database;
  query: Out<Q>;
  params: Out<P>;
  body: Out<B>;
}

type RouteContext = { params: Promise<Record<string, string>> };

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
      const params = parseParams(spec.params, await context.params);
      const query = spec.query ? parseQuery(spec.query, request) : undefined;
      const body = spec.body ? await parseBody(spec.body, request) : undefined;
      if (spec.settle === 'project') await settle(projectId);
      else if (spec.settle !== 'nothing') {
        const { runId } = spec.settle({ params, query, body } as Parameters<typeof spec.settle>[0]);
        const problem = runIdProblem(runId);
        if (problem) throw new AppError('bad_request', problem);
        await settle(projectId, runId);
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

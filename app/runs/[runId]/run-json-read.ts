// The run page's own JSON routes (a step's span, its span tree, the run's trace): the run id and
// step position from the path, the project from the query, read as the page was: scoped to the
// project it shows, settling nothing (the page they serve did).
import { z } from 'zod';
import type { Executor } from '@/db/sql';
import { SPAN_TREE_LIMIT, SPAN_TREE_MAX } from '@/lib/api-types';
import { AppError } from '@/lib/app-error';
import { projectName, runIdProblem } from '@/lib/filters';
import { keyText } from '@/trajectory/key-text';
import { dashboardRequestRead, schemaParse } from '@/app/read-door';

const query = z.object({ project: projectName.optional() });

export interface RunJsonRead {
  db: Executor;
  projectId: string;
  runId: string;
}

export async function readRunJson(
  request: Request,
  params: Promise<{ runId: string }>,
): Promise<RunJsonRead> {
  const { runId } = await params;
  const problem = runIdProblem(runId);
  if (problem) throw new AppError('bad_request', problem);
  const read = await dashboardRequestRead(request, {
    parse: schemaParse(query),
    project: (q: z.infer<typeof query>) => q.project,
    settle: 'nothing',
  });
  if (!read.ok) throw new AppError('bad_request', read.problems.join('; '));
  return { db: read.db, projectId: read.project.id, runId: keyText(runId) };
}

/** The step position of a step route's path: a whole number from 1. */
export async function stepOrdinal(params: Promise<{ ordinal: string }>): Promise<number> {
  const ordinal = Number((await params).ordinal);
  if (!Number.isInteger(ordinal) || ordinal < 1) {
    throw new AppError('bad_request', 'the step position must be a whole number from 1');
  }
  return ordinal;
}

/** A span tree's `limit` from the query: how many spans to answer with, 1 to SPAN_TREE_MAX. */
export function spanTreeLimit(request: Request): number {
  const asked = new URL(request.url).searchParams.get('limit');
  if (asked === null) return SPAN_TREE_LIMIT;
  const limit = Number(asked);
  if (!/^[0-9]+$/.test(asked) || limit < 1 || limit > SPAN_TREE_MAX) {
    throw new AppError('bad_request', `limit must be a whole number from 1 to ${SPAN_TREE_MAX}`);
  }
  return limit;
}

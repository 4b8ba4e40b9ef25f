import { asc, eq, sql } from 'drizzle-orm';
import { projects, runs } from '../schema';
import type { Executor } from '../sql';

export interface ProjectListing {
  id: string;
  name: string;
}

/**
 * Projects by name: for the dashboard's project switcher capped (a handful; capped regardless),
 * for work done per project (`limit` null) every one (a reference table: read whole on any node).
 */
export async function listProjects(
  db: Executor,
  limit: number | null = 500,
): Promise<ProjectListing[]> {
  const query = db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .orderBy(asc(projects.name));
  return limit === null ? query : query.limit(limit);
}

/** Whether the project has any run at all (an empty project shows how to send traces instead). */
export async function projectHasRuns(db: Executor, projectId: string): Promise<boolean> {
  const [row] = await db
    .select({ found: sql<number>`1` })
    .from(runs)
    .where(eq(runs.projectId, projectId))
    .limit(1);
  return row !== undefined;
}

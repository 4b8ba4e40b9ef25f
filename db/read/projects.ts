import { asc, eq, sql } from 'drizzle-orm';
import { projects, runs } from '../schema';
import type { Executor } from '../sql';

export interface ProjectListing {
  id: string;
  name: string;
}

/** Every project by name, for the dashboard's project switcher (a handful; capped regardless). */
export async function listProjects(db: Executor, limit = 500): Promise<ProjectListing[]> {
  return db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .orderBy(asc(projects.name))
    .limit(limit);
}

/** Every project's id (a reference table: read whole on every node). */
export async function allProjectIds(db: Executor): Promise<string[]> {
  const rows = await db.select({ id: projects.id }).from(projects).orderBy(asc(projects.id));
  return rows.map((r) => r.id);
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

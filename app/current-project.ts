// Which project a dashboard view shows: `?project=<name>`, else `default`, else the first one.
// Every dashboard read is scoped to this project, and comes after its marked runs are derived,
// so a page shows every span committed before it was asked for.
import type { Executor } from '@/db/sql';
import { listProjects } from '@/db/read/projects';
import { settle } from '@/server/runtime';
import { requireDashboardPage } from './dashboard-guard';
import type { ProjectListing } from '@/db/read/projects';

export interface ProjectChoice {
  projects: ProjectListing[];
  current: ProjectListing | null;
  /** The name asked for when no project has it. */
  missing: string | null;
}

export async function chooseProject(db: Executor, requested?: string): Promise<ProjectChoice> {
  await requireDashboardPage();
  const projects = await listProjects(db);
  const current =
    requested !== undefined
      ? (projects.find((p) => p.name === requested) ?? null)
      : (projects.find((p) => p.name === 'default') ?? projects[0] ?? null);
  if (current) await settle(current.id);
  return { projects, current, missing: current || requested === undefined ? null : requested };
}

import { eq } from 'drizzle-orm';
import { projects } from '../schema';
import type { Executor } from '../sql';

/** A project's id by name, or null; never creates one. */
export async function projectIdByName(db: Executor, name: string): Promise<string | null> {
  const [row] = await db.select({ id: projects.id }).from(projects).where(eq(projects.name, name));
  return row?.id ?? null;
}

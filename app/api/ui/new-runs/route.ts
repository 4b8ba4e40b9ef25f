import { z } from 'zod';
import { countRunsFrom } from '@/db/read/count-new-runs';
import { keyName, projectName } from '@/lib/filters';
import { AppError } from '@/lib/app-error';
import { dashboardRequestRead, schemaParse } from '../../../read-door';
import { respond } from '../../../http';

export const dynamic = 'force-dynamic';

const query = z.object({
  project: projectName.optional(),
  from: z.iso.datetime({ offset: true }).transform((v) => new Date(v)),
  agent: keyName().optional(),
  variant: keyName().optional(),
});

/** The home page's poll: how many runs start from the window's start on, now. */
export async function GET(request: Request): Promise<Response> {
  return respond(async () => {
    const read = await dashboardRequestRead<z.output<typeof query>>(request, {
      parse: schemaParse(query),
      project: (q) => q.project,
      settle: 'project',
    });
    if (!read.ok) throw new AppError('bad_request', read.problems.join('; '));
    const { from, agent, variant } = read.data;
    return {
      runs: await countRunsFrom(read.db, { projectId: read.project.id, from, agent, variant }),
    };
  });
}

import { z } from 'zod';
import { runProgress } from '@/db/read/run-progress';
import { keyId, projectName } from '@/lib/filters';
import { AppError } from '@/lib/app-error';
import { dashboardRequestRead, schemaParse } from '../../../read-door';
import { respond } from '../../../http';

export const dynamic = 'force-dynamic';

const query = z.object({
  project: projectName.optional(),
  run: keyId(),
});

/** A running run's page asks how far it has got: its steps and whether it has ended. */
export async function GET(request: Request): Promise<Response> {
  return respond(async () => {
    const read = await dashboardRequestRead<z.output<typeof query>>(request, {
      parse: schemaParse(query),
      project: (q) => q.project,
      settle: (q) => ({ runId: q.run }),
    });
    if (!read.ok) throw new AppError('bad_request', read.problems.join('; '));
    const progress = await runProgress(read.db, {
      projectId: read.project.id,
      runId: read.data.run,
    });
    if (!progress) throw new AppError('not_found', `no run ${read.data.run}`);
    return progress;
  });
}

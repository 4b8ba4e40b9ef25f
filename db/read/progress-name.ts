// What a run's progress metric counts (`loop.progress.name`, docs/conventions.md second wave), for the
// progress lane's axis: read from the run's spans, its root first, as the harness sent it.
import { sql } from 'drizzle-orm';
import type { Executor } from '../sql';
import { z } from 'zod';
import { column, queryRows } from '../sql';

const MAX_LENGTH = 80;

export async function progressName(
  db: Executor,
  { projectId, runId }: { projectId: string; runId: string },
): Promise<string | null> {
  const [row] = await queryRows(
    db,
    sql`select s.attributes ->> 'loop.progress.name' as name
        from runs r
        join trace_runs t on t.project_id = r.project_id and t.run_id = r.id
        join spans s on s.project_id = t.project_id and s.trace_id = t.trace_id
        where r.project_id = ${projectId}::uuid and r.id = ${runId}
          and s.attributes ->> 'loop.progress.name' is not null
        order by (s.span_id = r.root_span_id) desc, s.start_ms
        limit 1`,
    z.object({ name: column.text }),
  );
  const name = row?.name.trim() ?? '';
  return name === '' ? null : name.slice(0, MAX_LENGTH);
}

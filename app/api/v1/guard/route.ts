import { z } from 'zod';
import { lastStepIndex, stepActions } from '@/db/read/step-actions';
import { AppError } from '@/lib/app-error';
import { safeText } from '@/lib/filters';
import { decideGuard } from '@/trajectory/guard';
import { respond } from '../../../http';
import { authenticate } from '../auth';
import { projectRun } from '../project-run';

export const dynamic = 'force-dynamic';

const body = z.object({ runId: safeText().min(1).max(500) });

/** The deterministic continue / warn / terminate / escalate for the run as stored now. */
export async function POST(request: Request): Promise<Response> {
  return respond(async () => {
    const projectId = await authenticate(request);
    const parsed = body.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError(
        'bad_request',
        issue?.code === 'custom'
          ? `runId: ${issue.message}`
          : 'send a JSON body { "runId": "<run id>" }',
      );
    }
    const { runId } = parsed.data;
    const { db, run } = await projectRun(projectId, runId);
    const flagged = [run.flags.repeat?.step, run.flags.revisit?.step].filter(
      (s): s is number => s !== undefined,
    );
    const actions = await stepActions(db, { projectId, runId, indices: flagged });
    return decideGuard({
      stepCount: run.stepCount,
      lastStep: await lastStepIndex(db, { projectId, runId }),
      costUsd: run.costUsd,
      elapsedMs: run.elapsedMs,
      limits: run.limits,
      flags: run.flags,
      actionAt: (step) => actions.get(step) ?? null,
    });
  });
}

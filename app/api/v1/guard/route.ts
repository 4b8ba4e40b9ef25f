import { z } from 'zod';
import { lastStepIndex, stepActions } from '@/db/read/step-actions';
import { keyId } from '@/lib/filters';
import { decideGuard } from '@/trajectory/guard';
import { apiRead } from '../../../read-door';
import { projectRun } from '../run-param';

export const dynamic = 'force-dynamic';

const body = z.object({ runId: keyId() });

// A harness asks right after exporting its step: under a spool backlog the answer waits for the
// workers (which take the oldest first) rather than decide on the trajectory without that step.
const WAIT_FOR_SPOOL_MS = 10_000;

/** The deterministic continue / warn / terminate / escalate for the run as stored now. */
export const POST = apiRead(
  { body, settle: ({ body }) => body, waitForSpoolMs: WAIT_FOR_SPOOL_MS },
  async ({ db, projectId, body: { runId } }) => {
    const run = await projectRun(db, projectId, runId);
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
  },
);

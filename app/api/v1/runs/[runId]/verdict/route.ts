import { z } from 'zod';
import { safeText } from '@/lib/filters';
import { toRunSummaryJson } from '@/lib/run-json';
import { recordVerdict } from '@/server/runtime';
import { HUMAN_VERDICTS } from '@/trajectory/verification';
import { apiRead } from '../../../../../read-door';
import { projectRun, runParams, settleRun } from '../../../run-param';

export const dynamic = 'force-dynamic';

const body = z.object({
  verdict: z.enum(HUMAN_VERDICTS),
  units: z.number().finite().min(0).max(1e9).optional(),
  note: safeText().max(2000).optional(),
});

/** A person checked the outcome: verification becomes their verdict, with source `human`. */
export const POST = apiRead(
  { params: runParams, body, settle: settleRun },
  async ({ db, projectId, params: { runId }, body: given }) => {
    await projectRun(db, projectId, runId);
    await recordVerdict(projectId, runId, {
      verdict: given.verdict,
      units: given.units ?? (given.verdict === 'verified' ? 1 : 0),
      note: given.note?.trim() || null,
    });
    return { run: toRunSummaryJson(await projectRun(db, projectId, runId)) };
  },
);

/** Takes the verdict back: verification is again what the spans say. */
export const DELETE = apiRead(
  { params: runParams, settle: settleRun },
  async ({ db, projectId, params: { runId } }) => {
    await projectRun(db, projectId, runId);
    await recordVerdict(projectId, runId, null);
    return { run: toRunSummaryJson(await projectRun(db, projectId, runId)) };
  },
);

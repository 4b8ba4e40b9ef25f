'use server';
// The run page's "I checked": the same verdict as POST /api/v1/runs/{id}/verdict, from a form,
// so it works before any script has loaded. Back to the run page, which shows the new state.
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getRun } from '@/db/read/get-run';
import { listProjects } from '@/db/read/projects';
import { keyId, projectName, runIdProblem, safeText } from '@/lib/filters';
import { AppError } from '@/lib/app-error';
import { recordVerdict, requireDatabase, settle } from '@/server/runtime';
import { HUMAN_VERDICTS } from '@/trajectory/verification';
import { requireDashboardAction } from '../../dashboard-guard';

const form = z.object({
  runId: keyId(),
  project: projectName.optional(),
  intent: z.enum(['give', 'take_back']),
  verdict: z.enum(HUMAN_VERDICTS).optional(),
  units: z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : Number(v)),
    z.number().finite().min(0).max(1e9).optional(),
  ),
  note: safeText().max(2000).optional(),
});

export async function submitVerdict(formData: FormData): Promise<void> {
  await requireDashboardAction();
  const raw = Object.fromEntries(
    [...formData.entries()].filter(([k, v]) => !k.startsWith('$') && typeof v === 'string'),
  );
  const parsed = form.safeParse({ ...raw, project: raw.project || undefined });
  if (!parsed.success || runIdProblem(parsed.data.runId)) {
    throw new AppError('bad_request', 'the verdict form was not filled in as it should be');
  }
  const { runId, project, intent, verdict, units, note } = parsed.data;
  const db = requireDatabase();
  const projects = await listProjects(db);
  const chosen =
    project !== undefined
      ? projects.find((p) => p.name === project)
      : (projects.find((p) => p.name === 'default') ?? projects[0]);
  if (!chosen) throw new AppError('not_found', 'no such project');
  await settle(chosen.id, runId);
  if (!(await getRun(db, { projectId: chosen.id, runId }))) {
    throw new AppError('not_found', 'no such run in this project');
  }
  if (intent === 'take_back') await recordVerdict(chosen.id, runId, null);
  else {
    // Nothing is chosen for the reviewer: a verdict nobody picked is no verdict.
    if (!verdict) throw new AppError('bad_request', 'choose verified or contradicted');
    const given = verdict;
    await recordVerdict(chosen.id, runId, {
      verdict: given,
      units: given === 'verified' ? (units ?? 1) : 0,
      note: note?.trim() || null,
    });
  }
  const query = project ? `?project=${encodeURIComponent(project)}` : '';
  redirect(`/runs/${encodeURIComponent(runId)}${query}`);
}

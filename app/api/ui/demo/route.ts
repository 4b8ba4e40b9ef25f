import { z } from 'zod';
import { AppError } from '@/lib/app-error';
import { projectName } from '@/lib/filters';
import { loadSampleRunsIntoProject } from '@/samples/load-into-project';
import { requireDashboardRequest } from '../../../dashboard-guard';
import { respond } from '../../../http';

export const dynamic = 'force-dynamic';

const body = z.object({ project: projectName.optional() });

/**
 * The empty state's "Load sample runs": runs the sample loops in this process and sends them
 * through this server's own /v1/traces, into the project named in the body (JSON or form;
 * default `default`). Answers with what it loaded; loading again adds nothing.
 */
export async function POST(request: Request): Promise<Response> {
  return respond(async () => {
    requireDashboardRequest(request);
    const parsed = body.safeParse(await readBody(request));
    if (!parsed.success)
      throw new AppError('bad_request', 'send { "project": "<name>" } or nothing');
    return { loaded: await loadSampleRunsIntoProject(parsed.data.project) };
  });
}

async function readBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    const text = await request.text();
    if (text.trim() === '') return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  }
  if (type.includes('form')) {
    const form = await request.formData().catch(() => null);
    const project = form?.get('project');
    return typeof project === 'string' && project !== '' ? { project } : {};
  }
  return {};
}

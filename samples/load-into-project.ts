// The samples loaded by the server into one of its own projects: the empty state's "Load sample
// runs" (a server action or POST /api/ui/demo). The runs go through this server's /v1/traces
// with the real OTLP exporter, under a key made for the purpose and revoked after.
import { createApiKey, ensureProject, revokeApiKey } from '../db/projects';
import { projectIdByName } from '../db/read/project-by-name';
import { AppError } from '../lib/app-error';
import { DEFAULT_PROJECT } from '../server/boot';
import { getRuntime, requireDatabase } from '../server/runtime';
import { loadSampleRuns } from './demo';
import type { DemoSummary } from './demo';
import { localOrigin } from './demo-command';

// One load per project at a time: a second click while the first runs gets the first's answer.
const LOADS = Symbol.for('loopscope.sample-loads');
type Holder = { [LOADS]?: Map<string, Promise<DemoSummary>> };

export function loadSampleRunsIntoProject(project: string = DEFAULT_PROJECT): Promise<DemoSummary> {
  const holder = globalThis as Holder;
  const loads = (holder[LOADS] ??= new Map());
  let loading = loads.get(project);
  if (!loading) {
    loading = load(project).finally(() => loads.delete(project));
    loads.set(project, loading);
  }
  return loading;
}

async function load(project: string): Promise<DemoSummary> {
  const runtime = getRuntime();
  const db = requireDatabase();
  const projectId =
    project === DEFAULT_PROJECT
      ? await ensureProject(db, project)
      : await projectIdByName(db, project);
  if (!projectId) throw new AppError('not_found', `no project ${JSON.stringify(project)}`);
  const { id, key } = await createApiKey(db, projectId, { name: 'sample runs (dashboard)' });
  // This server, by the address it listens on: never a host taken from a request.
  const origin = localOrigin(runtime.config);
  try {
    return await loadSampleRuns(
      { origin, tracesUrl: `${origin}/v1/traces`, headers: { authorization: `Bearer ${key}` } },
      { prices: runtime.prices },
    );
  } finally {
    await revokeApiKey(db, id);
  }
}

import { z } from 'zod';
import { parseSearch, projectName } from '@/lib/filters';

/** The trajectory view's URL: the project, and the selected step's number. */
export const runParams = z.object({
  project: projectName.optional(),
  step: z.coerce.number().int().optional().catch(undefined),
});

export type RunParams = z.infer<typeof runParams>;

export function parseRunParams(search: Record<string, string | string[] | undefined>): RunParams {
  const parsed = parseSearch(runParams, search);
  return parsed.ok ? parsed.data : {};
}

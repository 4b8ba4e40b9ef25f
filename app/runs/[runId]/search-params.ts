import { z } from 'zod';
import { parseSearch, projectName } from '@/lib/filters';

/** The trajectory view's URL: the project, the selected step's number, and the view. */
export const runParams = z.object({
  project: projectName.optional(),
  step: z.coerce.number().int().optional().catch(undefined),
  /** `trace`: the run's whole trace as a span tree instead of its steps. */
  view: z.enum(['steps', 'trace']).optional().catch(undefined),
});

export type RunParams = z.infer<typeof runParams>;

export function parseRunParams(search: Record<string, string | string[] | undefined>): RunParams {
  const parsed = parseSearch(runParams, search);
  return parsed.ok ? parsed.data : {};
}

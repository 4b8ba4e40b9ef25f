import { z } from 'zod';
import { searchParamsObject } from '@/lib/filters';

/** The trajectory view's URL: the project, and the selected step's number. */
export const runParams = z.object({
  project: z.string().trim().min(1).max(200).optional(),
  step: z.coerce.number().int().optional().catch(undefined),
});

export type RunParams = z.infer<typeof runParams>;

export function parseRunParams(search: Record<string, string | string[] | undefined>): RunParams {
  const parsed = runParams.safeParse(searchParamsObject(search));
  return parsed.success ? parsed.data : {};
}

import '@/lib/zod-in-browser';
import { z } from 'zod';
import { parseSearch, projectName } from '@/lib/filters';
import { keyText } from '@/trajectory/key-text';

/** The compare view's URL: the two runs, the project, and the selected aligned row. */
export const compareParams = z.object({
  a: z
    .string({ error: 'name the first run (?a=RUN_ID)' })
    .min(1, 'name the first run')
    .transform(keyText),
  b: z
    .string({ error: 'name the run to compare with (?b=RUN_ID)' })
    .min(1, 'name the run to compare with')
    .transform(keyText),
  project: projectName.optional(),
  row: z.coerce.number().int().optional().catch(undefined),
});

export type CompareParams = z.infer<typeof compareParams>;

/** Every problem of the link, each named by its parameter (parseSearch checks the text too);
 * pure, so the 404 page names the same problems. */
export function parseCompareParams(
  search: Record<string, string | string[] | undefined>,
): { ok: true; data: CompareParams } | { ok: false; problems: string[] } {
  const parsed = parseSearch(compareParams, search);
  return parsed.ok ? parsed : { ok: false, problems: parsed.problems };
}

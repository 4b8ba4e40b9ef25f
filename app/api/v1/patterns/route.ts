import { z } from 'zod';
import { loopPatterns } from '@/db/read/loop-patterns';
import { oneOf, resolveWindow, windowParams } from '@/lib/filters';
import { PATTERN_KINDS } from '@/trajectory/loop-patterns';
import { apiRead } from '../../../read-door';

export const dynamic = 'force-dynamic';

const patternParams = windowParams.omit({ variant: true }).extend({
  kind: oneOf(PATTERN_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

// GET /api/v1/patterns: loops grouped across the window's runs (docs/api.md).
export const GET = apiRead(
  { query: patternParams, settle: 'project' },
  async ({ db, projectId, query }) => ({
    patterns: await loopPatterns(db, {
      projectId,
      window: resolveWindow(query),
      agent: query.agent,
      kind: query.kind,
      limit: query.limit,
    }),
  }),
);

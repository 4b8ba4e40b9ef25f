import { z } from 'zod';
import { getRuleRecord, toRule } from '@/db/read/alert-rules';
import { deleteRule } from '@/db/write/alert-rules';
import { ruleChangeBody } from '@/lib/alerts/rule';
import { apiRead } from '../../../../../read-door';
import { changeRule, notFound } from '../../rule-writes';

export const dynamic = 'force-dynamic';

const params = z.object({ ruleId: z.uuid({ error: 'not a rule id (a UUID)' }) });

export const GET = apiRead({ params, settle: 'nothing' }, async ({ db, projectId, params }) => {
  const row = await getRuleRecord(db, projectId, params.ruleId);
  if (!row) throw notFound();
  return { rule: toRule(row) };
});

export const PATCH = apiRead(
  { params, body: ruleChangeBody, settle: 'nothing' },
  async ({ db, projectId, params, body }) => ({
    rule: await changeRule(db, projectId, params.ruleId, body),
  }),
);

export const DELETE = apiRead({ params, settle: 'nothing' }, async ({ db, projectId, params }) => {
  if (!(await deleteRule(db, projectId, params.ruleId))) throw notFound();
  return new Response(null, { status: 204 });
});

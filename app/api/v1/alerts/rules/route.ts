import { listRules } from '@/db/read/alert-rules';
import { newRuleBody } from '@/lib/alerts/rule';
import { apiRead } from '../../../../read-door';
import { createRule } from '../rule-writes';

export const dynamic = 'force-dynamic';

export const GET = apiRead({ settle: 'nothing' }, async ({ db, projectId }) => ({
  rules: await listRules(db, projectId),
}));

export const POST = apiRead(
  { body: newRuleBody, settle: 'nothing' },
  async ({ db, projectId, body }) => ({ rule: await createRule(db, projectId, body) }),
);

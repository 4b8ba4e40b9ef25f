import { and, eq, sql } from 'drizzle-orm';
import type { NewRule, RuleCondition } from '../../lib/alerts/rule';
import { alertDeliveries, alertEvents, alertRules } from '../schema';
import type { Executor } from '../sql';
import type { AlertRuleRecord } from '../read/alert-rules';

/** A rule's stored fields; the secret comes sealed (lib/alerts/secret-box.ts) or not at all. */
export interface RuleFields {
  name: string;
  enabled: boolean;
  when: RuleCondition;
  agent: string | null;
  webhookUrl: string;
  webhookFormat: 'json' | 'slack';
  secretSealed: string | null;
}

export function ruleFields(rule: NewRule, secretSealed: string | null): RuleFields {
  return {
    name: rule.name,
    enabled: rule.enabled,
    when: rule.when,
    agent: rule.agent ?? null,
    webhookUrl: rule.webhook.url,
    webhookFormat: rule.webhook.format,
    secretSealed,
  };
}

export async function insertRule(
  db: Executor,
  projectId: string,
  fields: RuleFields,
): Promise<AlertRuleRecord> {
  const [row] = await db
    .insert(alertRules)
    .values({ projectId, ...fields, kind: fields.when.kind })
    .returning();
  if (!row) throw new Error('the rule was not stored');
  return row;
}

export async function updateRule(
  db: Executor,
  projectId: string,
  ruleId: string,
  fields: RuleFields,
): Promise<AlertRuleRecord | null> {
  const [row] = await db
    .update(alertRules)
    .set({ ...fields, kind: fields.when.kind, updatedAt: sql`now()` })
    .where(and(eq(alertRules.projectId, projectId), eq(alertRules.id, ruleId)))
    .returning();
  return row ?? null;
}

/** Removes a rule with its events and their delivery log; false when there was none. */
export async function deleteRule(
  db: Executor,
  projectId: string,
  ruleId: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(alertRules)
      .where(and(eq(alertRules.projectId, projectId), eq(alertRules.id, ruleId)))
      .returning({ id: alertRules.id });
    if (gone.length === 0) return false;
    await tx.execute(sql`delete from ${alertDeliveries} d using ${alertEvents} e
      where d.project_id = e.project_id and d.event_id = e.id
        and e.project_id = ${projectId}::uuid and e.rule_id = ${ruleId}::uuid`);
    await tx
      .delete(alertEvents)
      .where(and(eq(alertEvents.projectId, projectId), eq(alertEvents.ruleId, ruleId)));
    return true;
  });
}

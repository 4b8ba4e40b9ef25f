import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { ruleCondition, RUN_RULE_KINDS, WINDOW_RULE_KINDS } from '../../lib/alerts/rule';
import type { Rule, RunCondition, WindowCondition } from '../../lib/alerts/rule';
import { alertRules } from '../schema';
import type { Executor } from '../sql';

export type AlertRuleRecord = typeof alertRules.$inferSelect;

/** A stored rule as the API shows it: whether it has a secret, never the secret. */
export function toRule(row: AlertRuleRecord): Rule {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    when: ruleCondition.parse(row.when),
    agent: row.agent,
    webhook: {
      url: row.webhookUrl,
      format: row.webhookFormat === 'slack' ? 'slack' : 'json',
      hasSecret: row.secretSealed !== null,
    },
  };
}

/** How many rules the project has. */
export async function countRules(db: Executor, projectId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(alertRules)
    .where(eq(alertRules.projectId, projectId));
  return row?.n ?? 0;
}

export async function listRules(db: Executor, projectId: string): Promise<Rule[]> {
  const rows = await db
    .select()
    .from(alertRules)
    .where(eq(alertRules.projectId, projectId))
    .orderBy(asc(alertRules.createdAt), asc(alertRules.id));
  return rows.map(toRule);
}

export async function getRuleRecord(
  db: Executor,
  projectId: string,
  ruleId: string,
): Promise<AlertRuleRecord | null> {
  const [row] = await db
    .select()
    .from(alertRules)
    .where(and(eq(alertRules.projectId, projectId), eq(alertRules.id, ruleId)));
  return row ?? null;
}

export interface EnabledRule<W> {
  id: string;
  name: string;
  when: W;
  agent: string | null;
}

/** The project's enabled run rules: what the derive step judges each run by. */
export async function enabledRunRules(
  db: Executor,
  projectId: string,
): Promise<EnabledRule<RunCondition>[]> {
  const rows = await db
    .select({
      id: alertRules.id,
      name: alertRules.name,
      when: alertRules.when,
      agent: alertRules.agent,
    })
    .from(alertRules)
    .where(
      and(
        eq(alertRules.projectId, projectId),
        eq(alertRules.enabled, true),
        inArray(alertRules.kind, [...RUN_RULE_KINDS]),
      ),
    );
  return rows.flatMap((r) => {
    // A rule stored by another version that this one cannot read must not fail the run's derivation.
    const when = ruleCondition.safeParse(r.when);
    return when.success ? [{ ...r, when: when.data as RunCondition }] : [];
  });
}

/** A project's enabled window rules: what the schedule judges (one project at a time, as a
 * database distributed by project_id answers on one node). */
export async function enabledWindowRules(
  db: Executor,
  projectId: string,
): Promise<(EnabledRule<WindowCondition> & { projectId: string })[]> {
  const rows = await db
    .select({
      projectId: alertRules.projectId,
      id: alertRules.id,
      name: alertRules.name,
      when: alertRules.when,
      agent: alertRules.agent,
    })
    .from(alertRules)
    .where(
      and(
        eq(alertRules.projectId, projectId),
        eq(alertRules.enabled, true),
        inArray(alertRules.kind, [...WINDOW_RULE_KINDS]),
      ),
    );
  return rows.flatMap((r) => {
    const when = ruleCondition.safeParse(r.when);
    return when.success ? [{ ...r, when: when.data as WindowCondition }] : [];
  });
}

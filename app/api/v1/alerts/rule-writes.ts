// Creating and changing rules, for the API and the dashboard alike: the operator's allow list is
// checked, the secret sealed, and the stored rule answered as the API shows it (no secret).
import type { Database } from '@/db/client';
import { countRules, getRuleRecord, toRule } from '@/db/read/alert-rules';
import { insertRule, ruleFields, updateRule } from '@/db/write/alert-rules';
import type { RuleFields } from '@/db/write/alert-rules';
import { webhookHostProblem } from '@/lib/alerts/webhook-address';
import type { NewRule, Rule, RuleChange } from '@/lib/alerts/rule';
import { sealSecret } from '@/lib/alerts/secret-box';
import { AppError } from '@/lib/app-error';
import { getRuntime, ownListeners } from '@/server/runtime';

function checkHost(url: string): void {
  const runtime = getRuntime();
  const problem = webhookHostProblem(
    url,
    runtime.config.alerts.webhookAllow,
    ownListeners(runtime),
  );
  if (problem) throw new AppError('bad_request', problem);
}

/**
 * Rules a project may have: one run matching them all fires each, and their deliveries share the
 * sender (a run that matched 800 rules held everyone's alerts for 102 s).
 */
export const MAX_RULES_PER_PROJECT = 100;

export async function createRule(db: Database, projectId: string, rule: NewRule): Promise<Rule> {
  checkHost(rule.webhook.url);
  if ((await countRules(db, projectId)) >= MAX_RULES_PER_PROJECT) {
    throw new AppError(
      'bad_request',
      `this project has ${MAX_RULES_PER_PROJECT} alert rules, the most it may have: change or delete one`,
    );
  }
  const sealed =
    rule.webhook.secret === undefined
      ? null
      : sealSecret(getRuntime().alertKey, rule.webhook.secret);
  return toRule(await insertRule(db, projectId, ruleFields(rule, sealed)));
}

export async function changeRule(
  db: Database,
  projectId: string,
  ruleId: string,
  change: RuleChange,
): Promise<Rule> {
  const current = await getRuleRecord(db, projectId, ruleId);
  if (!current) throw notFound();
  const before = toRule(current);
  const webhook = change.webhook ?? {};
  const fields: RuleFields = {
    name: change.name ?? before.name,
    enabled: change.enabled ?? before.enabled,
    when: change.when ?? before.when,
    agent: change.agent === undefined ? before.agent : change.agent,
    webhookUrl: webhook.url ?? before.webhook.url,
    webhookFormat: webhook.format ?? before.webhook.format,
    secretSealed:
      webhook.secret === undefined
        ? current.secretSealed
        : webhook.secret === null
          ? null
          : sealSecret(getRuntime().alertKey, webhook.secret),
  };
  if (webhook.url !== undefined) checkHost(webhook.url);
  const updated = await updateRule(db, projectId, ruleId, fields);
  if (!updated) throw notFound();
  return toRule(updated);
}

export function notFound(): AppError {
  return new AppError('not_found', 'no such alert rule in this project');
}

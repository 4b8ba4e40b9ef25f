'use server';
// The alerts page's writes: each checks the dashboard's door first, then goes the way the API's
// rules route goes (app/api/v1/alerts/rule-writes.ts), so the page and the API cannot disagree.
import { randomUUID } from 'node:crypto';
import { notFound, redirect } from 'next/navigation';
import { z } from 'zod';
import { projectIdByName } from '@/db/read/project-by-name';
import { getRuleRecord } from '@/db/read/alert-rules';
import { deleteRule } from '@/db/write/alert-rules';
import { fireEvents } from '@/db/write/alert-outbox';
import { newRuleBody, ruleChangeBody } from '@/lib/alerts/rule';
import { isAppError } from '@/lib/app-error';
import { getRuntime, requireDatabase } from '@/server/runtime';
import { changeRule, createRule } from '../api/v1/alerts/rule-writes';
import { requireDashboardAction } from '../dashboard-guard';
import { describeIssues } from '../read-door';

export interface RuleFormState {
  error: string | null;
  /** What was sent, to show again with the error (React resets a form after its action); never the secret. */
  values?: Record<string, string[]>;
}

function sentValues(form: FormData): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  for (const [name, value] of form.entries()) {
    if (name === 'secret' || name.startsWith('$') || typeof value !== 'string') continue;
    (values[name] ??= []).push(value);
  }
  return values;
}

function text(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function number(form: FormData, name: string): number | undefined {
  const value = text(form, name);
  return value === undefined ? undefined : Number(value);
}

/** The form's fields as the API's rule body. */
function ruleFromForm(form: FormData): Record<string, unknown> {
  const kind = text(form, 'kind');
  const when: Record<string, unknown> = { kind };
  if (kind === 'loop' && text(form, 'minWastedUsd') !== undefined)
    when.minWastedUsd = number(form, 'minWastedUsd');
  if (kind === 'exit_category') when.categories = form.getAll('categories').map(String);
  if (kind === 'run_cost_over') when.usd = number(form, 'usd');
  if (kind === 'exit_share_rise') {
    when.category = text(form, 'category');
    when.window = text(form, 'window');
    when.points = number(form, 'points');
  }
  if (kind === 'cost_per_verified_unit_rise') {
    when.window = '7d';
    when.percent = number(form, 'percent');
  }
  return {
    name: text(form, 'name') ?? '',
    enabled: form.get('enabled') === 'on',
    when,
    agent: text(form, 'agent') ?? null,
    webhook: { url: text(form, 'url') ?? '', format: text(form, 'format') },
  };
}

async function projectOf(form: FormData): Promise<{ projectId: string; name: string }> {
  const name = text(form, 'project') ?? 'default';
  const projectId = await projectIdByName(requireDatabase(), name);
  if (projectId === null) notFound();
  return { projectId, name };
}

/** The form's rule id: a UUID, or the page answers 404 as for a rule that is not there. */
function ruleIdOf(form: FormData): string {
  const parsed = z.uuid().safeParse(text(form, 'ruleId'));
  if (!parsed.success) notFound();
  return parsed.data;
}

const back = (project: string) => `/alerts?project=${encodeURIComponent(project)}`;

export async function saveRuleAction(
  _previous: RuleFormState,
  form: FormData,
): Promise<RuleFormState> {
  await requireDashboardAction();
  const { projectId, name } = await projectOf(form);
  const ruleId = text(form, 'ruleId') === undefined ? undefined : ruleIdOf(form);
  const fields = ruleFromForm(form);
  const secret = text(form, 'secret');
  try {
    const db = requireDatabase();
    if (ruleId === undefined) {
      const parsed = newRuleBody.safeParse({
        ...fields,
        webhook: { ...(fields.webhook as object), ...(secret ? { secret } : {}) },
      });
      if (!parsed.success) return { error: describeIssues(parsed.error), values: sentValues(form) };
      await createRule(db, projectId, parsed.data);
    } else {
      const remove = form.get('removeSecret') === 'on';
      const webhook = {
        ...(fields.webhook as object),
        ...(remove ? { secret: null } : secret ? { secret } : {}),
      };
      const parsed = ruleChangeBody.safeParse({ ...fields, webhook });
      if (!parsed.success) return { error: describeIssues(parsed.error), values: sentValues(form) };
      await changeRule(db, projectId, ruleId, parsed.data);
    }
  } catch (error) {
    if (isAppError(error) && error.status < 500) {
      return { error: error.message, values: sentValues(form) };
    }
    throw error;
  }
  redirect(back(name));
}

export async function setRuleEnabledAction(form: FormData): Promise<void> {
  await requireDashboardAction();
  const { projectId, name } = await projectOf(form);
  const ruleId = ruleIdOf(form);
  await changeRule(requireDatabase(), projectId, ruleId, {
    enabled: form.get('enabled') === 'true',
  });
  redirect(back(name));
}

export async function deleteRuleAction(form: FormData): Promise<void> {
  await requireDashboardAction();
  const { projectId, name } = await projectOf(form);
  await deleteRule(requireDatabase(), projectId, ruleIdOf(form));
  redirect(back(name));
}

/** Fires a test event for the rule now, through the outbox like any other. */
export async function sendTestEventAction(form: FormData): Promise<void> {
  await requireDashboardAction();
  const { projectId, name } = await projectOf(form);
  const db = requireDatabase();
  const rule = await getRuleRecord(db, projectId, ruleIdOf(form));
  if (rule) {
    await fireEvents(db, projectId, [
      {
        ruleId: rule.id,
        dedupeKey: `test:${randomUUID()}`,
        runId: null,
        summary: `${rule.name}: a test event from Loopscope`,
        detail: null,
      },
    ]);
    getRuntime().alertSender.kick();
  }
  redirect(back(name));
}

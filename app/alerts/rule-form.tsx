'use client';
// Create or edit one rule. Only the fields of the chosen kind show; the server action checks the
// whole rule with the API's schema and answers what is wrong in words.
import { useActionState, useState } from 'react';
import { EXIT_CATEGORIES } from '@/trajectory/exit-categories';
import type { Rule } from '@/lib/alerts/rule';
import { saveRuleAction } from './actions';
import styles from './alerts.module.css';

const KINDS = [
  ['fabricated_success', 'Fabricated success (one run)'],
  ['loop', 'Loop with wasted spend (one run)'],
  ['exit_category', 'Exit category (one run)'],
  ['run_cost_over', 'Run cost over (one run)'],
  ['unexplained_stop', 'Unexplained stop (one run)'],
  ['exit_share_rise', 'Exit share rise (window)'],
  ['cost_per_verified_unit_rise', 'Cost per verified unit rise (week on week)'],
] as const;

export function RuleForm({ project, rule }: { project: string; rule: Rule | null }) {
  const [state, action, pending] = useActionState(saveRuleAction, { error: null });
  const when = rule?.when;
  const [kind, setKind] = useState<string>(when?.kind ?? 'fabricated_success');
  const sent = state.values;
  // After a refused save, what was sent; else the rule's own values.
  const value = (key: string): string => {
    if (sent) return sent[key]?.[0] ?? '';
    const v = (when as Record<string, unknown> | undefined)?.[key];
    return typeof v === 'number' || typeof v === 'string' ? String(v) : '';
  };
  const field = (key: string, fallback: string): string =>
    sent ? (sent[key]?.[0] ?? '') : fallback;
  const checked = (key: string, fallback: boolean): boolean =>
    sent ? sent[key] !== undefined : fallback;
  const categories: readonly string[] =
    sent?.categories ?? (when?.kind === 'exit_category' ? when.categories : []);
  return (
    <form action={action} className={styles.form} aria-label={rule ? 'Edit rule' : 'New rule'}>
      <input type="hidden" name="project" value={project} />
      {rule && <input type="hidden" name="ruleId" value={rule.id} />}
      <label>
        Name
        <input
          name="name"
          required
          maxLength={200}
          defaultValue={field('name', rule?.name ?? '')}
        />
      </label>
      <label>
        When
        <select name="kind" value={kind} onChange={(e) => setKind(e.target.value)}>
          {KINDS.map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {kind === 'loop' && (
        <label>
          Wasted at least (US$, optional)
          <input name="minWastedUsd" inputMode="decimal" defaultValue={value('minWastedUsd')} />
        </label>
      )}
      {kind === 'run_cost_over' && (
        <label>
          Costs more than (US$)
          <input name="usd" inputMode="decimal" required defaultValue={value('usd')} />
        </label>
      )}
      {kind === 'exit_category' && (
        <fieldset className={styles.categories}>
          <legend>Ends in any of</legend>
          {EXIT_CATEGORIES.map((c) => (
            <label key={c} className={styles.check}>
              <input
                type="checkbox"
                name="categories"
                value={c}
                defaultChecked={categories.includes(c)}
              />
              {c}
            </label>
          ))}
        </fieldset>
      )}
      {kind === 'exit_share_rise' && (
        <>
          <label>
            Category
            <select name="category" defaultValue={value('category') || 'no_progress'}>
              {EXIT_CATEGORIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
          <label>
            Window
            <select name="window" defaultValue={value('window') || '1d'}>
              <option value="1d">1 day</option>
              <option value="7d">7 days</option>
            </select>
          </label>
          <label>
            Up at least (points)
            <input name="points" inputMode="decimal" required defaultValue={value('points')} />
          </label>
        </>
      )}
      {kind === 'cost_per_verified_unit_rise' && (
        <label>
          Up at least (%)
          <input name="percent" inputMode="decimal" required defaultValue={value('percent')} />
        </label>
      )}
      <label>
        Only agent (optional)
        <input name="agent" maxLength={500} defaultValue={field('agent', rule?.agent ?? '')} />
      </label>
      <label>
        Webhook URL
        <input
          name="url"
          type="url"
          required
          placeholder="https://hooks.slack.com/services/…"
          defaultValue={field('url', rule?.webhook.url ?? '')}
        />
      </label>
      <label>
        Body
        <select name="format" defaultValue={field('format', rule?.webhook.format ?? 'json')}>
          <option value="json">JSON event</option>
          <option value="slack">Slack message</option>
        </select>
      </label>
      <label>
        {rule?.webhook.hasSecret
          ? 'New signing secret (blank keeps the one set)'
          : 'Signing secret (optional)'}
        <input name="secret" type="password" autoComplete="new-password" minLength={8} />
      </label>
      {rule?.webhook.hasSecret && (
        <label className={styles.check}>
          <input
            type="checkbox"
            name="removeSecret"
            defaultChecked={checked('removeSecret', false)}
          />{' '}
          Remove the signing secret
        </label>
      )}
      <label className={styles.check}>
        <input
          type="checkbox"
          name="enabled"
          defaultChecked={checked('enabled', rule?.enabled ?? true)}
        />{' '}
        Enabled
      </label>
      {state.error && (
        <p className="notice notice-danger" role="alert">
          {state.error}
        </p>
      )}
      <div className={styles.formActions}>
        <button className="button" type="submit" disabled={pending}>
          {rule ? 'Save rule' : 'Create rule'}
        </button>
        {rule && (
          <a className="button" href={`/alerts?project=${encodeURIComponent(project)}`}>
            Cancel
          </a>
        )}
      </div>
    </form>
  );
}

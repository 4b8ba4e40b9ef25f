// An alert rule as the API takes and gives it (docs/api.md "Alerts"), parsed with zod so that a
// bad body is answered 400 naming each field that is wrong.
import { z } from 'zod';
import { keyName, oneOf, safeText } from '../filters';
import { EXIT_CATEGORIES } from '../../trajectory/exit-categories';

const usd = z.number().finite().min(0).max(1e9);

const runConditions = [
  z.object({ kind: z.literal('fabricated_success') }).strict(),
  z.object({ kind: z.literal('loop'), minWastedUsd: usd.optional() }).strict(),
  z
    .object({
      kind: z.literal('exit_category'),
      categories: z.array(oneOf(EXIT_CATEGORIES)).min(1).max(EXIT_CATEGORIES.length),
    })
    .strict(),
  z.object({ kind: z.literal('run_cost_over'), usd }).strict(),
  z.object({ kind: z.literal('unexplained_stop') }).strict(),
] as const;

const windowConditions = [
  z
    .object({
      kind: z.literal('exit_share_rise'),
      category: oneOf(EXIT_CATEGORIES),
      window: oneOf(['1d', '7d']),
      points: z.number().finite().gt(0).max(100),
    })
    .strict(),
  z
    .object({
      kind: z.literal('cost_per_verified_unit_rise'),
      window: z.literal('7d', { error: 'must be 7d' }),
      percent: z.number().finite().gt(0).max(1e6),
    })
    .strict(),
] as const;

export const RUN_RULE_KINDS = [
  'fabricated_success',
  'loop',
  'exit_category',
  'run_cost_over',
  'unexplained_stop',
] as const;
export const WINDOW_RULE_KINDS = ['exit_share_rise', 'cost_per_verified_unit_rise'] as const;
const KINDS = [...RUN_RULE_KINDS, ...WINDOW_RULE_KINDS].join(', ');

export const ruleCondition = z.discriminatedUnion('kind', [...runConditions, ...windowConditions], {
  error: (issue) =>
    issue.code === 'invalid_union' ? `kind must be one of ${KINDS}` : 'must be an object',
});
export type RuleCondition = z.output<typeof ruleCondition>;
export type RunCondition = Extract<RuleCondition, { kind: (typeof RUN_RULE_KINDS)[number] }>;
export type WindowCondition = Extract<RuleCondition, { kind: (typeof WINDOW_RULE_KINDS)[number] }>;

export function isRunCondition(when: RuleCondition): when is RunCondition {
  return (RUN_RULE_KINDS as readonly string[]).includes(when.kind);
}

/** An http(s) URL without credentials in it. */
const webhookUrl = safeText()
  .max(2000)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not a URL' });
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      ctx.addIssue({ code: 'custom', message: 'must be an http:// or https:// URL' });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'must not carry a user name or password' });
    }
  });

const ruleName = safeText().trim().min(1).max(200);
const agent = keyName().nullable().optional();
const secret = safeText().min(8).max(500);

const webhookSpec = z
  .object({
    url: webhookUrl,
    format: oneOf(['json', 'slack']),
    secret: secret.optional(),
  })
  .strict();

/** A rule to create: a Rule without `id`. */
export const newRuleBody = z
  .object({
    name: ruleName,
    enabled: z.boolean().default(true),
    when: ruleCondition,
    agent,
    webhook: webhookSpec,
  })
  .strict();
export type NewRule = z.output<typeof newRuleBody>;

/**
 * A change to a rule: any of its fields. A webhook without `secret` keeps the one it has; `secret:
 * null` removes it.
 */
export const ruleChangeBody = z
  .object({
    name: ruleName.optional(),
    enabled: z.boolean().optional(),
    when: ruleCondition.optional(),
    agent,
    webhook: webhookSpec
      .partial()
      .extend({ secret: secret.nullable().optional() })
      .strict()
      .optional(),
  })
  .strict()
  .refine((change) => Object.keys(change).length > 0, { message: 'change at least one field' });
export type RuleChange = z.output<typeof ruleChangeBody>;

/** A rule as the API shows it: the secret never, only whether there is one. */
export interface Rule {
  id: string;
  name: string;
  enabled: boolean;
  when: RuleCondition;
  agent: string | null;
  webhook: { url: string; format: 'json' | 'slack'; hasSecret: boolean };
}

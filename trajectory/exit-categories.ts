export const EXIT_CATEGORIES = [
  'goal_satisfied',
  'model_stopped',
  'budget_exhausted',
  'no_progress',
  'escalated',
  'tool_circuit_open',
  'goal_drift',
  'cancelled',
  'hard_error',
  'other',
  'unknown',
  'running',
] as const;

export type ExitCategory = (typeof EXIT_CATEGORIES)[number];

export const BUDGET_KINDS = ['steps', 'tokens', 'cost', 'deadline'] as const;

export type BudgetKind = (typeof BUDGET_KINDS)[number];

export const VERIFICATION_STATES = ['verified', 'contradicted', 'unverified'] as const;

export type VerificationState = (typeof VERIFICATION_STATES)[number];

export const EXIT_TONES = ['good', 'neutral', 'warning', 'bad', 'muted'] as const;

export type ExitTone = (typeof EXIT_TONES)[number];

export type ExitCategoryMeta = {
  label: string;
  description: string;
  tone: ExitTone;
  color: { light: string; dark: string };
};

// Light colours reach 4.5:1 against #ffffff and dark ones against #0a0a0a (WCAG AA text), and
// every pair stays apart in CIELAB; exit-reason.test.ts pins both properties.
export const EXIT_CATEGORY_META: Record<ExitCategory, ExitCategoryMeta> = {
  goal_satisfied: {
    label: 'Goal satisfied',
    description: 'The harness confirmed the goal was met.',
    tone: 'good',
    color: { light: '#15803d', dark: '#4ade80' },
  },
  model_stopped: {
    label: 'Model stopped',
    description: 'The model ended the loop on its own; nothing outside it confirmed the goal.',
    tone: 'neutral',
    color: { light: '#0f766e', dark: '#2dd4bf' },
  },
  budget_exhausted: {
    label: 'Budget exhausted',
    description: 'A step, token, cost or time limit cut the run off.',
    tone: 'warning',
    color: { light: '#a16207', dark: '#facc15' },
  },
  no_progress: {
    label: 'No progress',
    description: 'Stopped for repeating itself, cycling or stalling.',
    tone: 'bad',
    color: { light: '#a21caf', dark: '#e879f9' },
  },
  escalated: {
    label: 'Escalated',
    description: 'Handed to a human for approval or a decision.',
    tone: 'neutral',
    color: { light: '#6d28d9', dark: '#a78bfa' },
  },
  tool_circuit_open: {
    label: 'Tool circuit open',
    description: 'A tool kept failing and the circuit breaker stopped the run.',
    tone: 'bad',
    color: { light: '#c2410c', dark: '#fb923c' },
  },
  goal_drift: {
    label: 'Goal drift',
    description: 'Stopped because the work moved away from the task.',
    tone: 'bad',
    color: { light: '#be185d', dark: '#f472b6' },
  },
  cancelled: {
    label: 'Cancelled',
    description: 'Cancelled by a caller, a guardrail or a content filter.',
    tone: 'neutral',
    color: { light: '#0369a1', dark: '#38bdf8' },
  },
  hard_error: {
    label: 'Hard error',
    description: 'An error ended the run, including model output cut at its token limit.',
    tone: 'bad',
    color: { light: '#b91c1c', dark: '#f87171' },
  },
  other: {
    label: 'Other',
    description: 'Named a reason that maps to no category; the raw reason is kept.',
    tone: 'muted',
    color: { light: '#57534e', dark: '#a8a29e' },
  },
  unknown: {
    label: 'Unknown',
    description:
      'Ended but did not name why it stopped: an instrumentation gap to fix in the harness.',
    tone: 'warning',
    color: { light: '#1d4ed8', dark: '#60a5fa' },
  },
  running: {
    label: 'Running',
    description: 'No end yet.',
    tone: 'muted',
    color: { light: '#475569', dark: '#cbd5e1' },
  },
};

export function isSuccessClaim(category: ExitCategory): boolean {
  return category === 'goal_satisfied' || category === 'model_stopped';
}

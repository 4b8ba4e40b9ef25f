import { describe, expect, it } from 'vitest';
import { decideGuard } from './guard';
import type { GuardInput } from './guard';

const healthy: GuardInput = {
  stepCount: 4,
  lastStep: 4,
  costUsd: 0.1,
  elapsedMs: 1000,
  limits: { maxSteps: null, maxUsd: null, wallClockMs: null },
  flags: { repeat: null, revisit: null, stall: null },
  actionAt: () => 'restart_service',
};

describe('decideGuard', () => {
  it.each<[string, Partial<GuardInput>, string, string, number | null]>([
    ['healthy', {}, 'continue', 'healthy', null],
    [
      'step limit reached',
      { limits: { maxSteps: 4, maxUsd: null, wallClockMs: null } },
      'terminate',
      'call_limit_exceeded',
      4,
    ],
    [
      'dollar budget spent',
      { limits: { maxSteps: null, maxUsd: 0.1, wallClockMs: null } },
      'terminate',
      'budget_exhausted',
      4,
    ],
    [
      'wall clock passed',
      { limits: { maxSteps: null, maxUsd: null, wallClockMs: 900 } },
      'terminate',
      'budget_exhausted',
      4,
    ],
    [
      'a repeat',
      { flags: { repeat: { step: 3, of: 2 }, revisit: null, stall: null } },
      'terminate',
      'repeated_call',
      3,
    ],
    [
      'an A/B/A cycle',
      { flags: { repeat: null, revisit: { step: 3, of: 1, cycleLength: 2 }, stall: null } },
      'escalate',
      'cyclical_loop',
      3,
    ],
    [
      'a stall',
      { flags: { repeat: null, revisit: null, stall: { step: 4 } } },
      'warn',
      'no_progress',
      4,
    ],
    [
      '80% of the steps used',
      { limits: { maxSteps: 5, maxUsd: null, wallClockMs: null } },
      'warn',
      'call_limit_exceeded',
      4,
    ],
    [
      '80% of the dollars spent',
      { limits: { maxSteps: null, maxUsd: 0.12, wallClockMs: null } },
      'warn',
      'budget_exhausted',
      4,
    ],
  ])('%s', (_name, change, decision, reasonCode, step) => {
    const verdict = decideGuard({ ...healthy, ...change });
    expect(verdict).toMatchObject({ decision, reasonCode, step });
    expect(verdict.evidence.length).toBeGreaterThan(10);
  });

  it('declared budgets come before loop signals', () => {
    const verdict = decideGuard({
      ...healthy,
      limits: { maxSteps: 3, maxUsd: null, wallClockMs: null },
      flags: { repeat: { step: 3, of: 2 }, revisit: null, stall: null },
    });
    expect(verdict.reasonCode).toBe('call_limit_exceeded');
  });

  it('names the repeated action in its evidence', () => {
    const verdict = decideGuard({
      ...healthy,
      flags: { repeat: { step: 3, of: 2 }, revisit: null, stall: null },
    });
    expect(verdict.evidence).toBe(
      'step 3 repeats step 2: the same call of restart_service with no change of state in between',
    );
  });
});

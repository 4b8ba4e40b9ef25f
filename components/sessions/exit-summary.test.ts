import { describe, expect, it } from 'vitest';
import { exitSummary } from './exit-summary';

describe("a session's exits", () => {
  it('are named by their labels, the most common first, never by their ids', () => {
    expect(exitSummary({ no_progress: 1, goal_satisfied: 2 })).toBe(
      '2 goal satisfied · 1 no progress',
    );
    expect(exitSummary({ budget_exhausted: 1, unknown: 1 })).not.toMatch(/_/);
  });
});

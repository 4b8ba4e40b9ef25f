import { describe, expect, it } from 'vitest';
import type { RunSummary } from '@/lib/api-types';
import { contentWidths } from './column-widths';

const run = (agent: string | null, variant: string | null, looped: boolean) =>
  ({
    agent,
    variant,
    flags: {
      repeat: looped ? { step: 3, of: 2 } : null,
      revisit: null,
      stall: null,
      toolCircuit: null,
      fabricatedSuccess: false,
    },
  }) as unknown as RunSummary;

describe('the runs table’s content-sized columns', () => {
  it('widen for the names on the page, within bounds, and give back what no badge uses', () => {
    const short = contentWidths([run('ops', null, false)]);
    const long = contentWidths([run('migration-assistant', 'retry-budget-b', true)]);
    // A 19-character agent fits whole (the fixed column held 12).
    expect(long.agent).toBeGreaterThanOrEqual(19 * 7.2);
    expect(long.variant).toBeGreaterThanOrEqual(14 * 7.2);
    expect(short.agent).toBeLessThan(long.agent!);
    // No badge on the page: the signals column is its header's width, not 150 px.
    expect(short.signals).toBeLessThan(120);
    expect(contentWidths([run('x'.repeat(200), null, false)]).agent).toBe(200);
  });
});

// The home page's headline numbers (issue 16): a window's runs, spend, wasted spend and its share,
// loop rate and cost per verified unit, each against the window of the same length just before.
// Sums in, figures and changes out; a ratio with nothing to divide by is null, never 0.
import { change, costPerVerifiedUnit } from './report-metrics';
import type { Change } from './report-metrics';

/** What a window's runs add up to (the run rollups' measures). */
export interface WindowTotals {
  runs: number;
  costUsd: number;
  /** Spend from each run's first loop signal on (runs that did not end verified). */
  wastedUsd: number;
  /** Runs with a loop signal: a repeat, revisit or stall. */
  loopRuns: number;
  verifiedUnits: number;
}

export const HEADLINE_FIGURES = [
  'runs',
  'costUsd',
  'wastedUsd',
  'wastedShare',
  'loopRate',
  'costPerVerifiedUnit',
] as const;
export type HeadlineFigure = (typeof HEADLINE_FIGURES)[number];

export type HeadlineFigures = Record<HeadlineFigure, number | null>;

/** Shares move by points (absolute); counts and money by their relative change. */
export const SHARE_FIGURES: ReadonlySet<HeadlineFigure> = new Set(['wastedShare', 'loopRate']);

export const EMPTY_TOTALS: WindowTotals = {
  runs: 0,
  costUsd: 0,
  wastedUsd: 0,
  loopRuns: 0,
  verifiedUnits: 0,
};

export function headlineFigures(t: WindowTotals): HeadlineFigures {
  return {
    runs: t.runs,
    costUsd: t.costUsd,
    wastedUsd: t.wastedUsd,
    wastedShare: t.costUsd > 0 ? t.wastedUsd / t.costUsd : null,
    loopRate: t.runs > 0 ? t.loopRuns / t.runs : null,
    costPerVerifiedUnit: costPerVerifiedUnit(t.costUsd, t.verifiedUnits),
  };
}

export interface HeadlineNumber {
  figure: HeadlineFigure;
  value: number | null;
  previous: number | null;
  change: Change | null;
}

export function headlineNumbers(current: WindowTotals, previous: WindowTotals): HeadlineNumber[] {
  const now = headlineFigures(current);
  const before = headlineFigures(previous);
  return HEADLINE_FIGURES.map((figure) => ({
    figure,
    value: now[figure],
    previous: before[figure],
    change: change(now[figure], before[figure]),
  }));
}

/** The window of the same length that ends where this one starts. */
export function previousWindow(window: { from: Date; to: Date }): { from: Date; to: Date } {
  const length = window.to.getTime() - window.from.getTime();
  return { from: new Date(window.from.getTime() - length), to: new Date(window.from.getTime()) };
}

// The variant comparison's shape: what the read model returns and the page renders.
import type { ExitCategory } from './exit-categories';
import type { HistogramLayout } from './report-metrics';

export interface Distribution {
  p50: number | null;
  p95: number | null;
  max: number | null;
  /** Runs per bin of the comparison's shared layout. */
  histogram: number[];
}

export interface VariantStats {
  variant: string;
  runs: number;
  verifiedRuns: number;
  verifiedUnits: number;
  costUsd: number;
  wastedUsd: number;
  /** Runs that used a model without a price: their spend is incomplete. */
  unpricedRuns: number;
  cost: Distribution;
  steps: Distribution;
  exits: { exitCategory: ExitCategory; runs: number }[];
}

export interface VariantComparison {
  a: VariantStats;
  b: VariantStats;
  /** One layout per metric for both variants, so their bars line up. */
  costLayout: HistogramLayout;
  stepLayout: HistogramLayout;
}

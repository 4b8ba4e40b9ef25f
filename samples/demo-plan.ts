// The demo batch: which sample runs when, over the four weeks before the anchor. Run ids are
// fixed; times are offsets from the anchor, so the batch is the same batch whenever it is sent.
import type { SampleInput, Task } from './agent-loop';
import { fixOscillation } from './fix-oscillation';
import { invoiceCrawl } from './invoice-crawl';
import { nightlyExport } from './nightly-export';
import { MIGRATION_VARIANTS, queryRawMigration } from './query-raw-migration';
import { restartLoop } from './restart-loop';
import { slowStall } from './slow-stall';

// Inside a project's default retention (30 days) with a day or two to spare, and inside the
// dashboard's default window: six weeks lost a third of the batch to the first retention sweep.
export const DEMO_DAYS = 28;
const DAY = 86_400_000;
const HOUR = 3_600_000;

export type SampleName =
  | 'restart-loop'
  | 'nightly-export'
  | 'query-raw-migration'
  | 'fix-oscillation'
  | 'slow-stall'
  | 'invoice-crawl';

export interface PlannedRun {
  runId: string;
  sample: SampleName;
  variant: string;
  /** Milliseconds from the anchor (negative: before it). */
  offsetMs: number;
  build: (input: SampleInput) => Task;
}

const two = (n: number) => String(n).padStart(2, '0');
// A working-hours time of day for run k, fixed per run.
const at = (daysAgo: number, k: number, baseHour = 8) =>
  -daysAgo * DAY + (baseHour + ((k * 7) % 9)) * HOUR + ((k * 13) % 60) * 60_000 - DAY;

export function demoPlan(): PlannedRun[] {
  const plan: PlannedRun[] = [];
  // Each month-end close is one conversation with the crawler: a session of its runs.
  for (let k = 0; k < 14; k++) {
    plan.push({
      runId: `demo-invoice-crawl-${two(k + 1)}`,
      sample: 'invoice-crawl',
      variant: 'baseline',
      offsetMs: at(27 - k * 2, k, 5),
      build: (input) => ({ ...invoiceCrawl(input), sessionId: `invoice-close-${(k >> 2) + 1}` }),
    });
  }
  // A copy of the crawler someone runs without the warehouse check: its claims stand unchecked,
  // for a person to confirm ("to check").
  [7, 4, 2].forEach((daysAgo, k) => {
    plan.push({
      runId: `demo-invoice-crawl-no-check-${two(k + 1)}`,
      sample: 'invoice-crawl',
      variant: 'no-check',
      offsetMs: at(daysAgo, k + 4, 6),
      build: (input) => {
        const task = invoiceCrawl(input);
        return {
          ...task,
          controls: { ...task.controls, verifyClaims: false, noOutsideCheck: true },
        };
      },
    });
  });
  [27, 25, 22, 20, 17, 15, 13, 11, 8, 6, 3, 1].forEach((daysAgo, k) => {
    const variant = k < 6 ? 'no-guard' : 'guard';
    plan.push({
      runId: `demo-restart-loop-${variant}-${two((k % 6) + 1)}`,
      sample: 'restart-loop',
      variant,
      offsetMs: at(daysAgo, k + 3),
      build: (input) =>
        restartLoop({ ...input, cause: k % 3 === 2 ? 'out-of-memory' : 'bad-database-url' }),
    });
  });
  [8, 1].forEach((daysAgo, k) => {
    plan.push({
      runId: `demo-nightly-export-${two(k + 1)}`,
      sample: 'nightly-export',
      variant: 'baseline',
      offsetMs: at(daysAgo, k, 3),
      build: nightlyExport,
    });
  });
  for (let task = 1; task <= 20; task++) {
    for (const [v, variant] of MIGRATION_VARIANTS.entries()) {
      plan.push({
        runId: `demo-query-raw-migration-${variant}-${two(task)}`,
        sample: 'query-raw-migration',
        variant,
        offsetMs: at(27 - Math.round(((task - 1) * 26) / 19), task) + v * 3 * HOUR,
        build: (input) => queryRawMigration({ ...input, task }),
      });
    }
  }
  [24, 14, 9, 3].forEach((daysAgo, k) => {
    const variant = k < 2 ? 'no-guard' : 'guard';
    plan.push({
      runId: `demo-fix-oscillation-${variant}-${two((k % 2) + 1)}`,
      sample: 'fix-oscillation',
      variant,
      offsetMs: at(daysAgo, k + 5),
      build: fixOscillation,
    });
  });
  [21, 11, 4].forEach((daysAgo, k) => {
    plan.push({
      runId: `demo-slow-stall-${two(k + 1)}`,
      sample: 'slow-stall',
      variant: 'baseline',
      offsetMs: at(daysAgo, k + 2, 9),
      build: slowStall,
    });
  });
  return plan.sort((a, b) => a.offsetMs - b.offsetMs || a.runId.localeCompare(b.runId));
}

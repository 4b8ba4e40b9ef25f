// A synthetic but realistic project for the read benchmarks: agents of very different volume,
// A/B variants on some, the taxonomy's exit categories in plausible shares, runs of 1 to a few
// hundred steps (log-normal, ~20 on average), starts spread over the span with a daily rhythm.
// Every run is generated from its own seed, so the runs and the steps COPY streams (two passes)
// agree, and a run's totals (steps, cost, tokens, wasted spend) are the sums of its steps.
import type { ExitCategory } from '../../trajectory/exit-categories';
import { runSearchText } from '../../derive/search-text';
import { mulberry32 } from '../../lib/mulberry32';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface DatasetSpec {
  /** Steps in the project, the probe runs included. */
  steps: number;
  /** The dataset's newest instant (the benchmark's "now"). */
  endMs: number;
  /** How far back the runs go. The same span at every size: a bigger project is a denser one. */
  spanDays: number;
  seed: number;
  /** A run of exactly this many steps, ending a minute before `endMs` (id `PROBE_RUN_ID`). */
  probeSteps: number;
}

export const PROBE_RUN_ID = 'bench-probe-run';

const AGENTS: { name: string; weight: number; variants: (string | null)[]; models: string[] }[] = [
  {
    name: 'coder',
    weight: 30,
    variants: ['control', 'treatment', null],
    models: ['claude-sonnet-4', 'gpt-4.1'],
  },
  { name: 'ops-agent', weight: 20, variants: ['v1', 'v2', 'v3'], models: ['gpt-4.1'] },
  { name: 'researcher', weight: 15, variants: [null], models: ['gemini-2.5-pro', 'gpt-4.1'] },
  { name: 'form-filler', weight: 10, variants: ['baseline', 'guarded'], models: ['gpt-4o-mini'] },
  { name: 'reconciler', weight: 8, variants: [null], models: ['claude-sonnet-4'] },
  { name: 'triage', weight: 7, variants: ['a', 'b'], models: ['gpt-4o-mini'] },
  { name: 'sql-analyst', weight: 6, variants: [null], models: ['gpt-4.1'] },
  { name: 'browser', weight: 4, variants: [null], models: ['claude-sonnet-4', 'gpt-4o-mini'] },
];

const CATEGORY_WEIGHTS: [ExitCategory, number][] = [
  ['goal_satisfied', 40],
  ['model_stopped', 12],
  ['budget_exhausted', 12],
  ['no_progress', 10],
  ['escalated', 5],
  ['tool_circuit_open', 4],
  ['goal_drift', 2],
  ['cancelled', 3],
  ['hard_error', 6],
  ['other', 2],
  ['unknown', 4],
];

const PRICES: Record<string, [number, number]> = {
  'claude-sonnet-4': [3, 15],
  'gpt-4.1': [2, 8],
  'gemini-2.5-pro': [1.25, 10],
  'gpt-4o-mini': [0.15, 0.6],
};

const ACTIONS = ['read_file', 'edit_file', 'run_tests', 'search', 'list_dir', 'http_get', 'sql'];

/** Seeded noise to shape synthetic data. */
export const prng = mulberry32;

function hex(rand: () => number, chars: number): string {
  let out = '';
  while (out.length < chars)
    out += Math.floor(rand() * 0x1_0000_0000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, chars);
}

function pick<T>(rand: () => number, items: readonly [T, number][]): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = rand() * total;
  for (const [item, weight] of items) {
    r -= weight;
    if (r < 0) return item;
  }
  return items[items.length - 1]![0];
}

/** Log-normal step count, median 12 (mean ~20), 1..400. */
function stepCount(rand: () => number): number {
  const normal = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return Math.min(400, Math.max(1, Math.round(Math.exp(Math.log(12) + normal))));
}

export interface GeneratedStep {
  ordinal: number;
  startMs: number;
  durationMs: number;
  action: string;
  args: string;
  actionHash: string;
  stateHash: string;
  result: string;
  resultHash: string;
  progress: number | null;
  verdict: string | null;
  verdictSource: string | null;
  errorClass: string | null;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  contextTokens: number;
  signals: string[];
  repeatOf: number | null;
  revisitOf: number | null;
  revisitCycle: number | null;
  stallSince: number | null;
}

export interface GeneratedRun {
  id: string;
  rootSpanId: string;
  agent: string;
  variant: string | null;
  model: string;
  goal: string;
  /** Runs of one agent close in start order share a conversation (1 to 5 runs). */
  sessionId: string;
  /** What the runs list's `q` searches (derive/search-text.ts). */
  searchText: string;
  exitCategory: ExitCategory;
  exitReason: string | null;
  /** Set on a fixed number of runs whatever the size (`FIXED_WORD_RUNS_PER_DAY`). */
  exitDetail: string | null;
  verification: 'verified' | 'contradicted' | 'unverified';
  verifiedUnits: number;
  startedAtMs: number;
  endedAtMs: number | null;
  durationMs: number | null;
  stepCount: number;
  spanCount: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  wastedUsd: number;
  repeatStep: number | null;
  repeatOf: number | null;
  revisitStep: number | null;
  revisitOf: number | null;
  stallStep: number | null;
  toolCircuitStep: number | null;
  fabricatedSuccess: boolean;
  firstSignalStep: number | null;
  steps: GeneratedStep[];
}

/**
 * A search's word in the same number of runs at every size (as a ticket or customer's name would
 * be): `task 613` is in 0.1 % of runs, so its first page holds 1 run at 100k and a full 51 at 10M.
 */
export const FIXED_WORD = 'acmepay';
export const FIXED_WORD_RUNS_PER_DAY = 8;
const FIXED_WORD_DETAIL = `quota exceeded for ${FIXED_WORD}`;

/** Step counts of the dataset's runs (the probe apart), drawn from their own stream. */
export function planRuns(spec: DatasetSpec): number[] {
  const rand = prng(spec.seed);
  const counts: number[] = [];
  let left =
    spec.steps - (spec.probeSteps > 0 && spec.probeSteps <= spec.steps ? spec.probeSteps : 0);
  while (left > 0) {
    const count = Math.min(left, stepCount(rand));
    counts.push(count);
    left -= count;
  }
  return counts;
}

/**
 * When run `n` of `total` starts: runs are in start order (as ingest writes them), spread over the
 * span with a daily rhythm in UTC: twice as many runs start at 14:00 as at 02:00.
 */
export function startOf(spec: DatasetSpec, n: number, total: number, jitter: number): number {
  const spanHours = spec.spanDays * 24;
  const startMs = spec.endMs - spec.spanDays * DAY_MS;
  const h0 = (startMs % DAY_MS) / HOUR_MS;
  const phase = (x: number) => (2 * Math.PI * (x + h0 - 14)) / 24;
  const cumulative = (x: number) =>
    2 * x + (24 / (2 * Math.PI)) * (Math.sin(phase(x)) - Math.sin(phase(0)));
  const target = ((n + jitter) / total) * cumulative(spanHours);
  let lo = 0;
  let hi = spanHours;
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    if (cumulative(mid) < target) lo = mid;
    else hi = mid;
  }
  return Math.floor(startMs + lo * HOUR_MS);
}

/** Run `n` of the dataset from its own seed; `probe` makes the fixed run the benchmark opens. */
export function generateRun(
  spec: DatasetSpec,
  n: number,
  count: number,
  startAt: number | ((stepMs: number) => number),
  probe = false,
  fixedWord = false,
): GeneratedRun {
  const rand = prng(spec.seed * 1_000_003 + n + 7);
  const agent = pick(
    rand,
    AGENTS.map((a) => [a, a.weight] as [(typeof AGENTS)[number], number]),
  );
  const variant = agent.variants[Math.floor(rand() * agent.variants.length)] ?? null;
  const model = agent.models[Math.floor(rand() * agent.models.length)]!;
  const [inRate, outRate] = PRICES[model]!;
  const id = probe ? PROBE_RUN_ID : hex(rand, 32);
  const stepMs = 800 + Math.floor(rand() * 4000);
  const startedAtMs = typeof startAt === 'number' ? startAt : startAt(stepMs);
  let category: ExitCategory = probe ? 'budget_exhausted' : pick(rand, CATEGORY_WEIGHTS);
  const looping = category === 'no_progress' || (category === 'budget_exhausted' && rand() < 0.5);
  const firstSignal = looping && count > 2 ? 2 + Math.floor(rand() * (count - 2)) : null;
  const actions = ACTIONS.slice(0, 3 + Math.floor(rand() * 4));
  const steps: GeneratedStep[] = [];
  let cost = 0;
  let wasted = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  for (let k = 1; k <= count; k++) {
    const action = actions[(k * 7 + n) % actions.length]!;
    const target = Math.floor(rand() * 40);
    const input = 400 + Math.floor(rand() * 6000) + k * 30;
    const output = 40 + Math.floor(rand() * 600);
    const stepCost = (input * inRate + output * outRate) / 1e6;
    const signal = firstSignal !== null && k >= firstSignal && k % 2 === firstSignal % 2;
    const error = rand() < 0.03 ? 'transient' : null;
    steps.push({
      ordinal: k,
      startMs: startedAtMs + 10 + (k - 1) * stepMs,
      durationMs: stepMs - 20,
      action,
      args: `{"path":"src/module-${target}.ts","limit":${20 + (k % 5)}}`,
      actionHash: hex(rand, 16),
      stateHash: hex(rand, 16),
      result: error ? `${action} failed: timeout` : `${action} ok (${target} matches)`,
      resultHash: hex(rand, 16),
      progress: agent.name === 'ops-agent' ? null : Math.max(0, 100 - k * 3),
      verdict: k === count && category === 'goal_satisfied' ? 'pass' : null,
      verdictSource: k === count && category === 'goal_satisfied' ? 'environment' : null,
      errorClass: error,
      costUsd: stepCost,
      inputTokens: input,
      outputTokens: output,
      contextTokens: input + k * 200,
      signals: signal ? (k === firstSignal ? ['repeat'] : ['revisit']) : [],
      repeatOf: signal && k === firstSignal ? k - 1 : null,
      revisitOf: signal && k !== firstSignal ? k - 2 : null,
      revisitCycle: signal && k !== firstSignal ? 2 : null,
      stallSince: null,
    });
    cost += stepCost;
    inputTokens += input;
    outputTokens += output;
    if (firstSignal !== null && k >= firstSignal) wasted += stepCost; // the signal step is waste too
  }
  const endedAtMs = startedAtMs + count * stepMs + 30;
  // A run that has not ended by the dataset's end is still running.
  const running = endedAtMs > spec.endMs && !probe;
  if (running) category = 'running';
  const verified = category === 'goal_satisfied' && rand() < 0.75;
  const fabricated = category === 'goal_satisfied' && !verified && rand() < 0.4;
  const revisit = steps.find((s) => s.revisitOf !== null);
  return {
    id,
    rootSpanId: hex(rand, 16),
    agent: agent.name,
    variant,
    model,
    goal: `${agent.name} task ${n % 997}`,
    sessionId: `${agent.name} conversation ${Math.floor(n / 5)}`,
    searchText: runSearchText({
      goal: `${agent.name} task ${n % 997}`,
      agent: agent.name,
      variant,
      actions: [...new Set(steps.map((s) => s.action))],
      exitReason: category === 'unknown' || running ? null : category,
      exitDetail: fixedWord ? FIXED_WORD_DETAIL : null,
      spans: [],
    }),
    exitCategory: category,
    exitReason: category === 'unknown' || running ? null : category,
    exitDetail: fixedWord ? FIXED_WORD_DETAIL : null,
    verification: verified ? 'verified' : fabricated ? 'contradicted' : 'unverified',
    verifiedUnits: verified ? 1 + Math.floor(rand() * 4) : 0,
    startedAtMs,
    endedAtMs: running ? null : endedAtMs,
    durationMs: running ? null : endedAtMs - startedAtMs,
    stepCount: count,
    spanCount: count * 3 + 1,
    costUsd: cost,
    inputTokens,
    outputTokens,
    wastedUsd: wasted,
    repeatStep: firstSignal,
    repeatOf: firstSignal === null ? null : firstSignal - 1,
    revisitStep: revisit?.ordinal ?? null,
    revisitOf: revisit?.revisitOf ?? null,
    stallStep: null,
    toolCircuitStep: category === 'tool_circuit_open' ? count : null,
    fabricatedSuccess: fabricated,
    firstSignalStep: firstSignal,
    steps,
  };
}

/** The dataset's runs: the probe first, then the others in start order. */
export function* generateRuns(spec: DatasetSpec, counts = planRuns(spec)): Generator<GeneratedRun> {
  if (spec.probeSteps > 0 && spec.probeSteps <= spec.steps) {
    const probeStart = (stepMs: number) => spec.endMs - spec.probeSteps * stepMs - 60_000;
    yield generateRun(spec, -1, spec.probeSteps, probeStart, true);
  }
  const jitter = prng(spec.seed + 1);
  const fixed = FIXED_WORD_RUNS_PER_DAY * spec.spanDays;
  const total = counts.length;
  for (let n = 0; n < total; n++) {
    // Runs are spread evenly in n over the span, so every (total ÷ fixed)th run is `fixed` in all.
    const fixedWord = Math.floor(((n + 1) * fixed) / total) > Math.floor((n * fixed) / total);
    const startAt = startOf(spec, n, total, jitter());
    yield generateRun(spec, n, counts[n]!, startAt, false, fixedWord);
  }
}

// What the trajectory view draws. The page maps the read model's rows into LaneStep once, on the
// server: hashes shortened, each distinct hash numbered by first appearance, step links as
// positions. Arguments, results and raw attributes are not here: the detail loads them per step.
import type { StepSpanDetail, TrajectoryStepRecord } from '@/lib/api-types';
import type { Signal, Verdict } from '@/trajectory/step';

/** A step as the read model gives it (db/read/trajectory-steps.ts). */
export type TrajectoryStepInput = TrajectoryStepRecord;

export interface LaneStep {
  /** Position in the run, 1..n. */
  ordinal: number;
  /** The step number the spans carry. */
  index: number;
  durationMs: number | null;
  action: string | null;
  actionHash: string | null;
  /** 0, 1, 2… by first appearance of the action hash; null without one. */
  actionKey: number | null;
  /** The observed state: the state hash, or the result hash when the run has no state hashes. */
  stateHash: string | null;
  stateKey: number | null;
  progress: number | null;
  verdict: Verdict | null;
  verdictSource: string | null;
  errorClass: string | null;
  costUsd: number;
  tokens: number;
  inputTokens: number;
  outputTokens: number;
  signals: Signal[];
  repeatOf: number | null;
  revisitOf: number | null;
  revisitCycle: number | null;
  /** Positions of the steps named by repeatOf / revisitOf / stallSince. */
  repeatFrom: number | null;
  revisitFrom: number | null;
  stallFrom: number | null;
}

export interface HashLegendEntry {
  key: number;
  hash: string;
  /** For actions: the action's name. */
  name: string | null;
  count: number;
}

export interface Trajectory {
  steps: LaneStep[];
  actions: HashLegendEntry[];
  states: HashLegendEntry[];
  /** Which hash the state lane shows (docs/conventions.md: results stand in when no state is sent). */
  stateSource: 'state' | 'result' | 'none';
}

/** What the page ships for the whole run: one array per field (no key repeated 10,000 times),
 * hashes as numbers into the legends. The client expands it into LaneStep[] once. */
export interface TrajectoryWire {
  actions: HashLegendEntry[];
  states: HashLegendEntry[];
  stateSource: Trajectory['stateSource'];
  index: number[];
  durationMs: (number | null)[];
  actionKey: (number | null)[];
  stateKey: (number | null)[];
  progress: (number | null)[];
  verdict: (Verdict | null)[];
  verdictSource: (string | null)[];
  errorClass: (string | null)[];
  costUsd: number[];
  inputTokens: number[];
  outputTokens: number[];
  signals: Signal[][];
  repeatOf: (number | null)[];
  revisitOf: (number | null)[];
  revisitCycle: (number | null)[];
  stallSince: (number | null)[];
}

/** The selected step's detail, from the span route (db/read/step-span.ts). */
export type StepDetailData = StepSpanDetail;

export type StepDetailState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; data: StepDetailData }
  | { status: 'error'; message: string };

// The JSON shapes of the read API (docs/api.md), which other programs depend on: names and shapes
// exactly as documented. Read models return these; pages and components render them.
import type { BudgetKind, ExitCategory, VerificationState } from '../trajectory/exit-categories';
import type { RunFlags } from '../trajectory/derive-run';
import type { RunValueProblem } from '../trajectory/span-facts';
import type { ModelMessages } from '../trajectory/span-messages';
import type { PatternKind } from '../trajectory/pattern-kinds';
import type { Signal, Verdict } from '../trajectory/step';
import type { VerificationSource } from '../trajectory/verification';

export type RunFlagsJson = RunFlags;

export interface RunSummary {
  id: string;
  traceIds: string[];
  agent: string | null;
  variant: string | null;
  goal: string | null;
  exitReason: string | null;
  exitCategory: ExitCategory;
  exitKind: BudgetKind | null;
  verification: VerificationState;
  verifiedUnits: number;
  /** Who settled `verification`: an environment verdict, a review (`loop.verified`), a person. */
  verificationSource: VerificationSource | null;
  /** The conversation the run belongs to (`loop.session.id`, `session.id`, …). */
  sessionId: string | null;
  tags: string[];
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
  stepCount: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  flags: RunFlagsJson;
  wastedUsd: number;
}

/** What the trajectory view needs beyond the API's summary. */
export interface RunDetail extends RunSummary {
  exitDetail: string | null;
  escalation: string | null;
  limits: { maxSteps: number | null; maxUsd: number | null; wallClockMs: number | null };
  model: string | null;
  unpricedModels: string[];
  cacheReadTokens: number;
  spanCount: number;
  firstSignalStep: number | null;
  progressDirection: 'down' | 'up';
  /** From the run's first span to the latest end of any of its spans, as stored. */
  elapsedMs: number;
  /** Values the spans sent that could not be used as sent: how many, and the first few. */
  valueProblems: { count: number; first: RunValueProblem[] };
}

export interface StepJson {
  index: number;
  spanId: string;
  startedAt: string;
  durationMs: number | null;
  action: string | null;
  actionArgs: string | null;
  actionHash: string | null;
  stateHash: string | null;
  resultHash: string | null;
  progress: number | null;
  verdict: Verdict | null;
  verdictSource: string | null;
  verdictFields: Record<string, boolean> | null;
  errorClass: string | null;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  signals: Signal[];
  repeatOf: number | null;
  revisitOf: number | null;
}

export interface ExitReasonGroup {
  exitCategory: ExitCategory;
  runs: number;
  costUsd: number;
  share: number;
}

/** A step for the trajectory view: what the lanes and the step list draw, nothing heavy. */
export interface TrajectoryStepRecord extends Omit<
  StepJson,
  'actionArgs' | 'startedAt' | 'spanId'
> {
  /** Position in the run, 1..n: unique, unlike the step number. */
  ordinal: number;
  startMs: number;
  revisitCycle: number | null;
  /** For a stall: the step number that set the best progress the stall failed to beat. */
  stallSince: number | null;
}

/** What the compare page reads of a step: what its aligned rows show and the hashes that align them. */
export type CompareStepRecord = Pick<
  TrajectoryStepRecord,
  | 'index'
  | 'action'
  | 'actionHash'
  | 'stateHash'
  | 'resultHash'
  | 'progress'
  | 'verdict'
  | 'errorClass'
  | 'costUsd'
  | 'signals'
>;

/** Attributes as sorted [key, value] pairs: keys such as `__proto__` stay plain data. */
export type AttributePairs = [string, unknown][];

export interface StepSpanDetail {
  ordinal: number;
  index: number;
  action: string | null;
  actionArgs: string | null;
  result: string | null;
  resultHash: string | null;
  verdict: string | null;
  verdictSource: string | null;
  verdictFields: [string, boolean][] | null;
  errorClass: string | null;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  contextTokens: number | null;
  durationMs: number | null;
  traceId: string;
  spanId: string;
  /** Null when the step's span is no longer stored. */
  span: {
    name: string;
    kind: number;
    parentSpanId: string | null;
    startMs: number;
    endMs: number | null;
    statusCode: number;
    statusMessage: string;
    scopeName: string;
    attributes: AttributePairs;
    events: { name: string; timeMs: number; attributes: AttributePairs }[];
    resource: AttributePairs;
  } | null;
}

/** One span of a span tree, with what it says of the model call it may be. */
export interface SpanTreeSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  /** 0 for the tree's roots (the step's span; in a run's tree, spans whose parent is absent). */
  depth: number;
  name: string;
  kind: number;
  /** What the span is in the loop (trajectory/span-facts.ts SpanRole), as ingest read it. */
  role: string | null;
  startMs: number;
  endMs: number | null;
  statusCode: number;
  statusMessage: string;
  model: string | null;
  /** The span's own usage as it reported it (a parent may repeat its children's sum). */
  inputTokens: number;
  outputTokens: number;
  /** Sent with the span, or its tokens at the price list's rate; null when neither is known. */
  costUsd: number | null;
  /** What a model call was sent and answered (trajectory/span-messages.ts); null when none. */
  messages: ModelMessages | null;
  attributes: AttributePairs;
  events: { name: string; timeMs: number; attributes: AttributePairs }[];
}

/** Spans a tree answers with unless asked for more; the answer says when a tree had more. */
export const SPAN_TREE_LIMIT = 500;
/** The most a tree answers with: each span comes with its attributes, events and messages. */
export const SPAN_TREE_MAX = 5_000;

/** A step's span and every span below it, or a run's whole trace: in tree order, capped. */
export interface SpanTree {
  spans: SpanTreeSpan[];
  /** How many spans the tree has; more than `spans.length` when capped. */
  total: number;
  limit: number;
  capped: boolean;
}

/** A run that could not be derived: kept, shown with its error, tried again later. */
export interface DeriveFailureRecord {
  runId: string;
  error: string;
  attempts: number;
  firstFailedAt: string;
  retryAt: string;
}

/** `GET /api/v1/runs/{a}/diff/{b}` (docs/api.md, "Compare two runs"). */
export interface RunDiffJson {
  a: RunSummary;
  b: RunSummary;
  alignment: {
    kind: 'same' | 'changed' | 'only_a' | 'only_b';
    a: number | null;
    b: number | null;
  }[];
  firstDivergence: { a: number | null; b: number | null } | null;
  firstSignal: { a: number | null; b: number | null };
}

/** One loop pattern of `GET /api/v1/patterns` (docs/api.md, "Loop patterns across runs"). */
export interface LoopPatternJson {
  kind: PatternKind;
  agent: string | null;
  signature: string;
  label: string;
  runs: number;
  wastedUsd: number;
  firstSeen: string;
  lastSeen: string;
  exampleRunIds: string[];
}

/** Where the dashboard's reads go now, and why (`/api/health`'s `reads`; server/read-replica.ts). */
export interface ReadSource {
  from: 'standby' | 'primary';
  /** Seconds the standby's data is behind the primary's; null when it could not be told. */
  lagSeconds: number | null;
  /** Why reads go to the primary though a standby is set; null while they go to the standby. */
  reason: string | null;
  checkedAt: string | null;
}

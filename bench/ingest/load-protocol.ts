// Messages between the bench (parent) and the load generator (a child process of its own, so
// the server under test and the client never share a thread).

interface Target {
  url: string;
  key: string;
  batchSize: number;
  stepsPerRun: number;
  /** Keeps the runs of one command apart from every other command's. */
  seed: number;
}

/** `lanes` exporters, each sending its next batch as soon as the last one is answered. */
export interface ClosedLoopCommand extends Target {
  type: 'closed';
  lanes: number;
  warmupMs: number;
  durationMs: number;
}

/** Batches at a fixed rate whatever the answers, spread over `exporters` exporters. */
export interface OpenLoopCommand extends Target {
  type: 'open';
  spansPerSecond: number;
  durationMs: number;
  exporters: number;
  /** Where to write `traceId:spanId` of every acknowledged span, one a line. */
  ackedIdsFile?: string;
}

export type GeneratorCommand = ClosedLoopCommand | OpenLoopCommand | { type: 'exit' };

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export interface GeneratorResult {
  /** The measured window (closed: after warm-up; open: the whole send phase). */
  windowMs: number;
  /** Spans acknowledged (200) with the answer inside the window. */
  spansInWindow: number;
  /** Every span acknowledged, window or not (warm-up, stragglers, the last partial batch). */
  spansAcked: number;
  /** Spans handed to an exporter (open loop: what was offered). */
  spansOffered: number;
  exportsOk: number;
  exportsFailed: number;
  /** Failed exports by their error message (first words). */
  failures: Record<string, number>;
  /** export() call to its result callback, retries included, for exports answered in the window. */
  exportLatencyMs: LatencySummary;
  /** Every HTTP response the exporters got, retries included, by status. */
  httpStatuses: Record<string, number>;
  /** Responses with status 429 or 503. */
  refused: number;
  /** Refused responses that carried no usable Retry-After. */
  refusedWithoutRetryAfter: number;
  /** Refused responses by the server's message (numbers folded to N). */
  refusalReasons: Record<string, number>;
  /** Date.now() when the last export was answered. */
  lastAnswerAt: number;
  /** From the first export to the last answer (open loop: the drain after the window too). */
  elapsedMs: number;
  /** The generator's own CPU over the window, in cores (1 = one core busy). */
  cpuCores: number;
  /** Of that, making spans with the SDK (the rest is the exporter: serialize, gzip, HTTP). */
  generateCores: number;
}

export type GeneratorReply =
  | { type: 'ready' }
  | { type: 'result'; result: GeneratorResult }
  | { type: 'error'; message: string };

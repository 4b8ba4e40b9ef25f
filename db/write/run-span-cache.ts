// The spans of long runs as this process last loaded them, so deriving such a run again reads only
// what changed: a count of its span rows by trace and version (xmin and received_at: the write
// that stored them), then whole rows for the versions not held. The database stays the truth: a
// version held is a row as it was written, whoever wrote what since. Bounded by spans, least
// recently used out first.
import { SizedLru } from '../../lib/sized-lru';
import type { RunSpanRow } from './load-run-spans';

/** A span row as loaded, with what identifies this version of it. */
export interface HeldSpan {
  version: string;
  receivedMs: number;
  row: RunSpanRow;
}

/** A run's rows as the database counts them: by trace, then version (one write of the trace). */
export type SpanGroups = Map<string, Map<string, HeldSpan[]>>;

/** A run's rows as loaded: in groups, and each span once (of one sent twice, the later copy). */
export interface HeldRun {
  groups: SpanGroups;
  size: number;
  latest: RunSpanRow[];
  /** The copy in `latest` of each span, by trace and span id. */
  ids: Map<string, Map<string, HeldSpan>>;
}

/** Runs with fewer spans are loaded whole: their read is cheap, and they would crowd the cache. */
export const MIN_CACHED_SPANS = 1000;
/** Spans held at most, across runs (a span with its facts is about a kilobyte). */
export const CACHED_SPANS = 60_000;

export class RunSpanCache {
  private readonly runs: SizedLru<HeldRun>;

  constructor(capacity = CACHED_SPANS) {
    this.runs = new SizedLru(capacity, MIN_CACHED_SPANS, (run) => run.size);
  }

  /** The spans held for a run, which are no longer held: loading changes them. */
  take(projectId: string, runId: string): HeldRun | undefined {
    return this.runs.take(runKey(projectId, runId));
  }

  /** Holds a run's spans as just loaded, when the run is long enough and they fit. */
  keep(projectId: string, runId: string, run: HeldRun): void {
    this.runs.keep(runKey(projectId, runId), run);
  }

  get spans(): number {
    return this.runs.size;
  }
}

/** A stored span row's key: a span id sent again with another start time is another row. */
export function rowKey(traceId: string, spanId: string, startMs: number): string {
  return `${traceId}\u0000${spanId}\u0000${startMs}`;
}

const runKey = (projectId: string, runId: string) => `${projectId}\u0000${runId}`;

// The door's side of the spool: an accepted export request becomes one row (db/write/ingest-spool.ts)
// committed before the 200, and the spool's bound (requests, bytes, the oldest one's age) is the
// only reason to refuse work the door could take. Workers (spool-worker.ts) expand the rows.
import type { Database } from '../db/client';
import type { Executor } from '../db/sql';
import { readSpoolBacklog, sawCommitted, spoolRequest } from '../db/write/ingest-spool';
import type { SpoolBacklog, SpoolCount, SpoolEntry, SpooledShare } from '../db/write/ingest-spool';
import { AppError } from '../lib/app-error';
import { namedRunId } from './span-facts';
import type { ValidSpan } from './validate';

export interface SpoolLimits {
  /** Requests waiting, at most. */
  maxRequests: number;
  /** Their bodies' bytes (decoded, uncompressed), at most. */
  maxBytes: number;
  /** The oldest request's age past which nothing more is taken until it is expanded. */
  maxAgeMs: number;
}

// 2 GiB decoded is about 2.8M spans (387 KB a 512-span batch), 5 minutes of the workers' work at
// this machine's 9,000 spans a second on Postgres, and a tenth of that on disk (bodies stay gzip):
// what a 60 s burst at 3 × that rate leaves waiting (1.1M spans, about 830 MB) fits in it.
export const DEFAULT_SPOOL_LIMITS: SpoolLimits = {
  maxRequests: 20_000,
  maxBytes: 2048 * 1024 * 1024,
  maxAgeMs: 10 * 60_000,
};

/**
 * Spans this process keeps decoded for requests it spooled, at most: a worker of this process
 * then stores them without reading the body back, inflating and decoding it a second time.
 * When full, new requests are not kept (the oldest wait longest and are taken first).
 */
export const DECODED_SPANS_KEPT = 16_384;

const MAX_RETRY_AFTER_SECONDS = 30;
// The share of the bound kept for projects that hold less than that share of it: one in four.
const KEPT_FOR_OTHERS = 4;
// How fast the measured drain rate follows a change.
const SMOOTHING = 0.3;

/** A put of this process that the last count applied did not see. */
interface UnseenPut {
  xid: bigint;
  projectId: string;
  bytes: number;
}

/**
 * The spool as this process sees it: the backlog as last counted in the database (by any
 * process's rows) plus what this process has put since, and the measured rate workers drain it.
 */
export class IngestSpool {
  private counted: SpoolCount = {
    requests: 0,
    bytes: 0,
    oldestAgeMs: 0,
    stuck: 0,
    byProject: new Map(),
    snapshot: null,
  };
  private countedAt: number;
  // This process's puts the count did not see, by the transaction that committed each: a put
  // that lands while a count's query runs is in it or not as its commit fell before or after the
  // count's snapshot, so it is counted once either way. (On a distributed Postgres the
  // coordinator's snapshot stands for the shards': a put committing at that moment may be
  // counted twice or missed until the next count.)
  private unseen: UnseenPut[] = [];
  private unseenTotal: SpooledShare = { requests: 0, bytes: 0 };
  private unseenByProject = new Map<string, SpooledShare>();
  private counts = { started: 0, applied: 0 };
  private drainPerSecond: number | null = null;
  private onPut: (projectId: string) => void = () => {};
  private decoded = new Map<number, readonly ValidSpan[]>();
  private decodedSpans = 0;

  constructor(
    private readonly db: () => Database,
    readonly limits: SpoolLimits = DEFAULT_SPOOL_LIMITS,
    private readonly now: () => number = () => Date.now(),
    private readonly keptSpans: number = DECODED_SPANS_KEPT,
  ) {
    this.countedAt = now();
  }

  /** Called after each put, with its project (the workers' cue). */
  whenPut(listener: (projectId: string) => void): void {
    this.onPut = listener;
  }

  /** The backlog: the last count, plus this process's puts since, the oldest aged meanwhile. */
  get backlog(): SpoolBacklog {
    const { requests, bytes, oldestAgeMs, stuck } = this.counted;
    const put = this.unseenTotal;
    const total = requests + put.requests;
    const aged = requests > 0 ? oldestAgeMs + (this.now() - this.countedAt) : 0;
    return {
      requests: total,
      bytes: bytes + put.bytes,
      oldestAgeMs: total === 0 ? 0 : aged,
      stuck,
    };
  }

  /** One project's requests waiting: the last count plus this process's puts since. */
  shareOf(projectId: string): SpooledShare {
    const counted = this.counted.byProject.get(projectId);
    const put = this.unseenByProject.get(projectId);
    return {
      requests: (counted?.requests ?? 0) + (put?.requests ?? 0),
      bytes: (counted?.bytes ?? 0) + (put?.bytes ?? 0),
    };
  }

  /** Counts the spool in the database again (workers do, between passes). */
  async recount(db: Executor = this.db()): Promise<SpoolBacklog> {
    const before = this.now();
    const count = ++this.counts.started;
    const counted = await readSpoolBacklog(db);
    // Several workers count at once: a count that started before the one applied is older.
    if (count < this.counts.applied) return counted;
    this.counts.applied = count;
    this.counted = counted;
    this.countedAt = before;
    const unseen: UnseenPut[] = [];
    for (const put of this.unseen) {
      if (this.sawPut(put.xid)) this.tallyUnseen(put, -1);
      else unseen.push(put);
    }
    this.unseen = unseen;
    // Nothing waits: spans still kept belong to rows gone some other way (a deleted project).
    // A row put meanwhile only loses its kept spans: its worker decodes the body.
    if (counted.requests === 0) this.release(this.heldIds());
    return counted;
  }

  /** A worker expanded `requests` requests over `ms` (the rate Retry-After is estimated from). */
  noteDrained(requests: number, ms: number): void {
    if (ms <= 0) return;
    const rate = (requests * 1000) / ms;
    this.drainPerSecond =
      this.drainPerSecond === null
        ? rate
        : this.drainPerSecond + SMOOTHING * (rate - this.drainPerSecond);
  }

  /**
   * 429 with Retry-After when a request of `bytes` would pass the bound, or, of `projectId`,
   * the part of it kept for others; nothing otherwise (workers being behind is what the spool
   * is for).
   */
  checkRoom(bytes: number, projectId?: string): void {
    const { maxRequests, maxBytes, maxAgeMs } = this.limits;
    const backlog = this.backlog;
    let why: string | null = null;
    let over = 0;
    const kept = projectId === undefined ? null : this.keptFromProject(projectId, bytes, backlog);
    if (backlog.requests + 1 > maxRequests) {
      why = `${backlog.requests} requests wait to be stored`;
      over = backlog.requests + 1 - maxRequests;
    } else if (backlog.requests > 0 && backlog.bytes + bytes > maxBytes) {
      why = `${backlog.bytes} bytes of requests wait to be stored`;
      over = Math.max(
        1,
        Math.ceil(((backlog.bytes + bytes - maxBytes) / backlog.bytes) * backlog.requests),
      );
    } else if (backlog.oldestAgeMs > maxAgeMs) {
      why = `the oldest request waiting to be stored arrived ${Math.round(backlog.oldestAgeMs / 1000)} s ago`;
      over = Math.max(1, Math.ceil(backlog.requests / 10));
    } else if (kept !== null) {
      ({ why, over } = kept);
    }
    if (why === null) return;
    const seconds = Math.min(
      MAX_RETRY_AFTER_SECONDS,
      Math.max(1, Math.ceil(over / Math.max(1, this.drainPerSecond ?? 1))),
    );
    throw new AppError('rate_limited', `${why}; retry after ${seconds} s`, {
      retryAfterSeconds: seconds,
    });
  }

  /**
   * The last quarter of the bound is kept for projects that hold less than a quarter of it: a
   * project outpacing the workers fills three quarters at most, and a neighbour still finds room.
   */
  private keptFromProject(
    projectId: string,
    bytes: number,
    backlog: SpoolBacklog,
  ): { why: string; over: number } | null {
    const { maxRequests, maxBytes } = this.limits;
    const keptRequests = Math.floor(maxRequests / KEPT_FOR_OTHERS);
    const keptBytes = Math.floor(maxBytes / KEPT_FOR_OTHERS);
    const share = this.shareOf(projectId);
    const why = (what: string) =>
      `${what} of this project wait to be stored, and the rest of the spool is kept for other projects`;
    if (
      keptRequests >= 1 &&
      backlog.requests + 1 > maxRequests - keptRequests &&
      share.requests + 1 > keptRequests
    ) {
      return {
        why: why(`${share.requests} requests`),
        over: backlog.requests + 1 - (maxRequests - keptRequests),
      };
    }
    if (
      share.requests > 0 &&
      backlog.bytes + bytes > maxBytes - keptBytes &&
      share.bytes + bytes > keptBytes
    ) {
      return {
        why: why(`${share.bytes} bytes of requests`),
        over: Math.max(
          1,
          Math.ceil(((share.bytes + bytes - keptBytes) / share.bytes) * share.requests),
        ),
      };
    }
    return null;
  }

  /**
   * Commits one request's body; returning means it is durable. `spans`, what the door validated
   * of it, is kept for this process's workers while there is room.
   */
  async put(
    projectId: string,
    entry: SpoolEntry & { spans?: readonly ValidSpan[] },
  ): Promise<void> {
    const { spans, ...request } = entry;
    const bytes = request.bytes ?? request.body.byteLength;
    this.checkRoom(bytes, projectId);
    // Counted from the check on, not from the commit: requests checked side by side each see
    // the others, so together they cannot pass the bound (or the part kept for others).
    const put: UnseenPut = { xid: -1n, projectId, bytes };
    this.tallyUnseen(put, 1);
    const named = spans ? spoolNames(spans) : {};
    let spooled: { id: number; xid: bigint };
    try {
      spooled = await spoolRequest(this.db(), projectId, { ...request, bytes, ...named });
    } catch (error) {
      this.tallyUnseen(put, -1);
      throw error;
    }
    const { id, xid } = spooled;
    if (spans && this.decodedSpans + spans.length <= this.keptSpans) {
      this.decoded.set(id, spans);
      this.decodedSpans += spans.length;
    }
    // A count that ran meanwhile may hold it already.
    if (this.sawPut(xid)) this.tallyUnseen(put, -1);
    else this.unseen.push({ ...put, xid });
    this.onPut(projectId);
  }

  private sawPut(xid: bigint): boolean {
    const { snapshot } = this.counted;
    return snapshot !== null && sawCommitted(snapshot, xid);
  }

  private tallyUnseen(put: UnseenPut, sign: 1 | -1): void {
    this.unseenTotal.requests += sign;
    this.unseenTotal.bytes += sign * put.bytes;
    const share = this.unseenByProject.get(put.projectId) ?? { requests: 0, bytes: 0 };
    share.requests += sign;
    share.bytes += sign * put.bytes;
    if (share.requests === 0) this.unseenByProject.delete(put.projectId);
    else this.unseenByProject.set(put.projectId, share);
  }

  /** Requests whose spans this process holds decoded. */
  heldIds(): number[] {
    return [...this.decoded.keys()];
  }

  /** The spans held for request `id`, if any. */
  heldSpans(id: number): readonly ValidSpan[] | undefined {
    return this.decoded.get(id);
  }

  /** Lets go of requests stored (or given up on). */
  release(ids: readonly number[]): void {
    for (const id of ids) {
      const spans = this.decoded.get(id);
      if (!spans) continue;
      this.decoded.delete(id);
      this.decodedSpans -= spans.length;
    }
  }
}

/** The traces a request's spans belong to and the runs they name: what a run's read waits for. */
export function spoolNames(spans: readonly ValidSpan[]): { traceIds: string[]; runIds: string[] } {
  const traces = new Set<string>();
  const runs = new Set<string>();
  for (const span of spans) {
    traces.add(span.traceId);
    const run = namedRunId(span.attributes);
    if (run !== null) runs.add(run);
  }
  return { traceIds: [...traces], runIds: [...runs] };
}

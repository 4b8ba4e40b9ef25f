// The OTLP trace export, whatever transport carried it: authenticate, admit, read, decode,
// validate, store, and the result to answer with. The HTTP route is one thin adapter
// (otlp-endpoint.ts); a gRPC service or another HTTP path calls this same function.
import type { Database } from '../db/client';
import { isDatabaseUnavailable } from '../db/errors';
import { missingKey } from '../db/projects';
import type { KeyScope } from '../db/projects';
import { AppError } from '../lib/app-error';
import type { Admission } from './admission';
import { ingestSpans } from './ingest-spans';
import { recentLoopLagMs } from './loop-lag';
import { rejectionMessage } from './otlp/encode-response';
import type { OtlpFormat } from './otlp/types';
import { decodeOtlpBody, inflateSent, readSentBody } from './read-body';
import type { BodyLimits } from './read-body';
import type { DiskHold } from './hold';
import { spoolNames } from './spool';
import type { IngestSpool } from './spool';
import { validateSpans } from './validate';

export interface ExportRequest {
  /** The API key as the transport carried it; null when it carried none. */
  key: string | null;
  format: OtlpFormat;
  gzipped: boolean;
  /** The body size the transport announced (Content-Length), when it did. */
  declaredBytes: number | null;
  /** The body as it arrives. */
  body: ReadableStream<Uint8Array> | null;
}

/** What the OTLP response reports: spans refused and why (partial_success). */
export interface ExportResult {
  rejectedSpans: number;
  errorMessage: string;
}

export interface IngestDeps {
  /** The database, or an AppError('unavailable') while it is not ready. */
  database(): Database;
  /** The key's project and id; an AppError('unauthorized') for a key that opens nothing. */
  authenticate(key: string): Promise<KeyScope>;
  /** Called once a request's spans are committed (the deriver's cue). */
  afterCommit?: () => void;
  admission: Admission;
  /**
   * Why the work already accepted is not keeping up (derivation far behind ingest), or null:
   * asked for the whole server before authentication (null) and for the key's project after.
   */
  overloaded?: (projectId: string | null) => string | null;
  body: BodyLimits;
  /**
   * Where accepted requests go: the spool (committed there, expanded by its workers). Without
   * one, the spans are stored before the answer (tools and tests that embed the core).
   */
  spool?: IngestSpool;
  /**
   * Where a request goes when the spool's database cannot answer (a failover): written to disk
   * and acknowledged, moved into the spool once the database is back. Without one, 503.
   */
  hold?: DiskHold;
  /** This process's recent event-loop lag, ms (loop-lag.ts; a test sets its own). */
  loopLagMs?: () => number;
}

/**
 * Stores the spans of one export request and says which were refused; every failure is an
 * AppError whose code the transport maps to its own status. Returning means every accepted span
 * is committed: in the spool (one row holding the request), or stored when there is none.
 */
export async function exportTraces(
  request: ExportRequest,
  deps: IngestDeps,
): Promise<ExportResult> {
  if (!request.key) throw missingKey();
  const db = deps.database();
  // Refusals at capacity come before authentication: they cost no database read.
  const ticket = deps.admission.enter(deps.overloaded?.(null) ?? null);
  try {
    const scope = await deps.authenticate(request.key);
    const lagging = deps.overloaded?.(scope.projectId) ?? null;
    if (lagging !== null) throw deps.admission.refusal(lagging);
    ticket.admit(scope);
    // A full spool refuses before the body is read; a body that would overfill it, once read.
    deps.spool?.checkRoom(request.declaredBytes ?? 0, scope.projectId);
    // Read while waiting, not at work: a slow body holds a place of its own project's share,
    // never a slot another client's spans could be stored in. Inflated only at work: a waiting
    // request holds the bytes as sent, which is what the bound of bodies held counts (a gzip
    // body inflates about tenfold, and hundreds may wait).
    const sent = await readSentBody(request.body, {
      ...deps.body,
      declaredBytes: request.declaredBytes,
      onChunk: (bytes) => ticket.hold(bytes),
      // With room to spare a slow body costs a socket and its bytes: it may take until the
      // deadline (an exporter busy gzipping a burst sends slowly, and a cut batch is sent again).
      paceEnforced: () => deps.admission.crowded(),
    }).catch((error: unknown) => {
      throw retryableWhenSlow(error, deps);
    });
    await ticket.work();
    const body = inflateSent(sent, {
      gzipped: request.gzipped,
      maxBytes: deps.body.maxBytes,
    });
    const { spans, rejectedCount, messages } = validateSpans(decodeOtlpBody(request.format, body));
    if (spans.length > 0) {
      if (deps.spool) {
        const entry = {
          format: request.format,
          // As sent: gzip is several times smaller to write, keep and read back.
          body: sent,
          gzipped: request.gzipped,
          bytes: body.byteLength,
        };
        await deps.spool.put(scope.projectId, { ...entry, spans }).catch(async (error: unknown) => {
          if (!deps.hold || !isDatabaseUnavailable(error)) throw error;
          await deps.hold.put({
            projectId: scope.projectId,
            keyId: scope.keyId,
            entry: { ...entry, ...spoolNames(spans) },
          });
        });
      } else {
        await ingestSpans(db, scope.projectId, spans);
        deps.afterCommit?.();
      }
    }
    return {
      rejectedSpans: rejectedCount,
      errorMessage: rejectionMessage(rejectedCount, messages),
    };
  } finally {
    ticket.leave();
  }
}

// Past either, this process is too busy to tell a slow client from its own slow reading.
const BUSY_LOOP_LAG_MS = 50;
const BUSY_SPOOL_AGE_MS = 1000;

/**
 * A body cut as too slow is refused as retryable (429 with Retry-After), not 408, which
 * exporters take as final: the slowness may be this server's (an event loop that lags, or a
 * burst being worked off on the cores that read the bodies) or a client's own passing load (an
 * agent's exporter gzipping a burst of batches), and either way its spans would be lost. The
 * connection is closed all the same, so a client that trickles on purpose gains nothing. The
 * message says when this server was busy, for whoever reads it.
 */
function retryableWhenSlow(error: unknown, deps: IngestDeps): unknown {
  if (!(error instanceof AppError) || error.code !== 'request_timeout') return error;
  const lag = (deps.loopLagMs ?? recentLoopLagMs)();
  const behindMs = deps.spool?.backlog.oldestAgeMs ?? 0;
  const busy =
    lag >= BUSY_LOOP_LAG_MS
      ? `its event loop ${Math.round(lag)} ms behind`
      : behindMs >= BUSY_SPOOL_AGE_MS
        ? `its spool ${(behindMs / 1000).toFixed(1)} s behind`
        : null;
  // Busy, the pace asked of the client is beside the point; keeping up, it is the point.
  const message =
    busy === null
      ? error.message
      : `${error.message.replace(/;.*$/, '')}, while this server is busy (${busy})`;
  return deps.admission.refusal(message);
}

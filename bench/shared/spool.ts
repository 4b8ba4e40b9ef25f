// The server's ingest spool as /api/health reports it: requests answered 200 whose spans are not
// stored yet. A bench that counts stored spans, or times how long until they are visible, waits
// for it to empty.

export interface SpoolBacklog {
  requests: number;
  bytes: number;
  oldestAgeSeconds: number;
  stuck: number;
}

/** The spool's backlog and the runs waiting to be derived. */
export interface PipelineLook {
  spool: SpoolBacklog;
  pendingRuns: number;
}

/** The pipeline as health reports it, or null while health does not answer. */
export async function pipelineLook(url: string): Promise<PipelineLook | null> {
  try {
    const response = await fetch(`${url}/api/health`);
    if (response.status !== 200) return null;
    const body = (await response.json()) as { spool?: SpoolBacklog; pendingRuns?: number };
    return body.spool ? { spool: body.spool, pendingRuns: body.pendingRuns ?? 0 } : null;
  } catch {
    return null;
  }
}

/**
 * Resolves at Date.now() when every run with stored spans has been derived too (after the spool
 * is empty): the whole pipeline has caught up, steps and verdicts included.
 */
export async function allDerived(url: string, timeoutMs = 600_000): Promise<number> {
  const done = await lookUntil(
    url,
    timeoutMs,
    (look) => look.spool.requests - look.spool.stuck === 0 && look.pendingRuns === 0,
  );
  if (done === null) throw new Error(`derivation did not catch up in ${timeoutMs / 1000} s`);
  return done;
}

/** Resolves at Date.now() when the spool holds nothing but stuck requests; the peak seen. */
export async function spoolEmpty(
  url: string,
  timeoutMs = 600_000,
): Promise<{ at: number; peakRequests: number }> {
  let peakRequests = 0;
  const at = await lookUntil(url, timeoutMs, ({ spool }) => {
    peakRequests = Math.max(peakRequests, spool.requests);
    return spool.requests - spool.stuck === 0;
  });
  if (at === null) throw new Error(`the spool did not empty in ${timeoutMs / 1000} s`);
  return { at, peakRequests };
}

/** Looks at health every 50 ms until `done`: Date.now() then, or null past `timeoutMs`. */
async function lookUntil(
  url: string,
  timeoutMs: number,
  done: (look: PipelineLook) => boolean,
): Promise<number | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const look = await pipelineLook(url);
    if (look && done(look)) return Date.now();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

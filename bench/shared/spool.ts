// The server's ingest spool as /api/health reports it: requests answered 200 whose spans are not
// stored yet. A bench that counts stored spans, or times how long until they are visible, waits
// for it to empty.

export interface SpoolBacklog {
  requests: number;
  bytes: number;
  oldestAgeSeconds: number;
  stuck: number;
}

export async function spoolBacklog(url: string): Promise<SpoolBacklog | null> {
  try {
    const response = await fetch(`${url}/api/health`);
    if (response.status !== 200) return null;
    return ((await response.json()) as { spool?: SpoolBacklog }).spool ?? null;
  } catch {
    return null;
  }
}

/** Resolves at Date.now() when the spool holds nothing but stuck requests; the peak seen. */
export async function spoolEmpty(
  url: string,
  timeoutMs = 600_000,
): Promise<{ at: number; peakRequests: number }> {
  const deadline = Date.now() + timeoutMs;
  let peakRequests = 0;
  while (Date.now() < deadline) {
    const backlog = await spoolBacklog(url);
    if (backlog) {
      peakRequests = Math.max(peakRequests, backlog.requests);
      if (backlog.requests - backlog.stuck === 0) return { at: Date.now(), peakRequests };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the spool did not empty in ${timeoutMs / 1000} s`);
}

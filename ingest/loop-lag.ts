// How late this process's event loop runs, lately: a body that arrives too slowly while the loop
// itself lags may be slow because of this server, not the client (a burst of many uploads at
// once), and is refused as retryable instead of cut as the client's fault.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { IntervalHistogram } from 'node:perf_hooks';

// A window of a few seconds: what a body being read now has lived through.
const WINDOW_MS = 5000;

let histogram: IntervalHistogram | null = null;
let previous = 0;

function p99Ms(h: IntervalHistogram): number {
  return h.count > 0 ? h.percentile(99) / 1e6 : 0;
}

/**
 * Starts watching the event loop (once per process; later calls do nothing). The server starts
 * it with its runtime, so the first slow body after boot is judged with a reading; a window is
 * closed on a timer, so a reading after a quiet hour is not that hour's.
 */
export function startLoopLagMonitor(): void {
  if (histogram !== null) return;
  const watched = monitorEventLoopDelay({ resolution: 10 });
  watched.enable();
  histogram = watched;
  setInterval(() => {
    previous = p99Ms(watched);
    watched.reset();
  }, WINDOW_MS).unref();
}

/** The 99th percentile of the event loop's delay over the last one or two windows, ms. */
export function recentLoopLagMs(): number {
  if (histogram === null) {
    startLoopLagMonitor();
    return 0;
  }
  return Math.max(previous, p99Ms(histogram));
}

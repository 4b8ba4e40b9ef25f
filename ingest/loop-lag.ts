// How late this process's event loop runs, lately: a body that arrives too slowly while the loop
// itself lags may be slow because of this server, not the client (a burst of many uploads at
// once), and is refused as retryable instead of cut as the client's fault.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { IntervalHistogram } from 'node:perf_hooks';

// A window of a few seconds: what a body being read now has lived through.
const WINDOW_MS = 5000;

let histogram: IntervalHistogram | null = null;
let previous = 0;
let windowStarted = 0;

/** The 99th percentile of the event loop's delay over the last few seconds, ms. */
export function recentLoopLagMs(now = Date.now()): number {
  if (histogram === null) {
    histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    windowStarted = now;
    return 0;
  }
  const current = histogram.count > 0 ? histogram.percentile(99) / 1e6 : 0;
  if (now - windowStarted >= WINDOW_MS) {
    previous = current;
    histogram.reset();
    windowStarted = now;
  }
  return Math.max(previous, current);
}

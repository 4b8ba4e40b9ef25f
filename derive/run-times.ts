// When a run started and ended, from spans whose clocks are not all to be believed. An agent's
// clock may be off by minutes; a span dated 2000-01-01 beside spans of today is a bug of its
// exporter, and taken as the run's start it would move the run out of every window and into the
// next retention sweep. A span's time is trusted within its run: one that lies far from the
// other spans' and from its own receipt is not used for the run's start or end, and the run says
// it had one (docs/conventions.md, "Time").
import type { RunValueProblem } from '../trajectory/span-facts';
import type { StoredSpan } from './span-tree';

/** Days, not seconds: clock skew and a spool's backlog stay far inside it. */
export const TRUSTED_TIME_MS = 24 * 3600_000;

export interface RunTimes {
  startedAtMs: number;
  lastSpanEndMs: number;
  /** The spans whose times were set aside, as the run's value problems. */
  problems: RunValueProblem[];
}

export function runTimes(spans: readonly StoredSpan[]): RunTimes {
  const near = (a: number, b: number) => Math.abs(a - b) <= TRUSTED_TIME_MS;
  // Spans stored about when they began anchor the run; without any (a replay of old runs),
  // every span is taken as it says.
  const anchored = spans.filter((s) => s.receivedMs !== undefined && near(s.startMs, s.receivedMs));
  let low = Infinity;
  let high = -Infinity;
  for (const s of anchored) {
    low = Math.min(low, s.startMs);
    high = Math.max(high, s.endMs ?? s.startMs);
  }
  const setAside = (s: StoredSpan) =>
    anchored.length > 0 &&
    s.receivedMs !== undefined &&
    !near(s.startMs, s.receivedMs) &&
    (s.startMs < low - TRUSTED_TIME_MS || (s.endMs ?? s.startMs) > high + TRUSTED_TIME_MS);
  let startedAtMs = Infinity;
  let lastSpanEndMs = -Infinity;
  const problems: RunValueProblem[] = [];
  for (const s of spans) {
    if (setAside(s)) {
      problems.push({
        key: 'startTimeUnixNano',
        value: new Date(s.startMs).toISOString(),
        problem: `${Math.round(Math.abs(s.startMs - (s.receivedMs ?? 0)) / 86_400_000)} days from its receipt and outside the run's other spans: not used for the run's start or end`,
        spanId: s.spanId,
        spanName: s.name,
      });
      continue;
    }
    startedAtMs = Math.min(startedAtMs, s.startMs);
    lastSpanEndMs = Math.max(lastSpanEndMs, s.endMs ?? s.startMs);
  }
  return { startedAtMs, lastSpanEndMs, problems };
}

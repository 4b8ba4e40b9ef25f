import { describe, expect, it } from 'vitest';
import { runTimes, TRUSTED_TIME_MS } from './run-times';
import type { StoredSpan } from './span-tree';

const NOW = Date.parse('2026-12-07T12:00:00Z');
const DAY = 86_400_000;

const span = (spanId: string, startMs: number, receivedMs?: number): StoredSpan => ({
  traceId: 't',
  spanId,
  parentSpanId: null,
  name: spanId,
  startMs,
  endMs: startMs + 1000,
  statusCode: 0,
  statusMessage: '',
  facts: { role: 'other' },
  receivedMs,
});

describe('runTimes', () => {
  it('sets aside a span far from its receipt and from the spans stored as they began', () => {
    const times = runTimes([
      span('root', NOW - 60_000, NOW),
      span('step', Date.parse('2000-01-01'), NOW),
      span('later', Date.parse('2100-01-01'), NOW),
    ]);
    expect(times.startedAtMs).toBe(NOW - 60_000);
    expect(times.lastSpanEndMs).toBe(NOW - 59_000);
    expect(times.problems.map((p) => p.spanId)).toEqual(['step', 'later']);
  });

  it('believes a run streamed over a week, an agent clock hours off, and a replay of old runs', () => {
    const week = Array.from({ length: 8 }, (_, d) => span(`d${d}`, NOW - d * DAY, NOW - d * DAY));
    expect(runTimes(week).startedAtMs).toBe(NOW - 7 * DAY);
    const skewed = [span('a', NOW - 5 * 3600_000, NOW), span('b', NOW, NOW)];
    expect(runTimes(skewed).problems).toEqual([]);
    // Sent today, begun a year ago: nothing was stored as it began, so nothing is set aside.
    const replay = [span('a', NOW - 365 * DAY, NOW), span('b', NOW - 364 * DAY, NOW)];
    expect(runTimes(replay)).toMatchObject({ startedAtMs: NOW - 365 * DAY, problems: [] });
    // Without receipts (spans built in memory), every time is taken as it says.
    expect(runTimes([span('a', 0), span('b', NOW)]).startedAtMs).toBe(0);
  });

  it('keeps a span late beyond its receipt but inside the run’s other spans', () => {
    const times = runTimes([
      span('root', NOW - 2 * DAY, NOW - 2 * DAY),
      span('end', NOW, NOW),
      // Arrived days after it began (a spool that was down), but within the run.
      span('middle', NOW - DAY, NOW + TRUSTED_TIME_MS * 2),
    ]);
    expect(times.problems).toEqual([]);
  });
});

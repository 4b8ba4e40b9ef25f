// Loading a long run's spans through the cache gives exactly what a whole read gives, after spans
// were added, sent again with more to them, or sent again with another start time, and reuses
// the rows whose version it holds. On both databases.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { createTestDatabase, TEST_DATABASE_KINDS } from '../test-database';
import { ingestSpans } from '../../ingest/ingest-spans';
import { span } from '../../ingest/test-spans';
import { loadRunSpans } from './load-run-spans';
import type { RunSpanRow } from './load-run-spans';
import { MIN_CACHED_SPANS, RunSpanCache } from './run-span-cache';

const TRACE = 'cace'.repeat(8);
const STEPS = MIN_CACHED_SPANS + 200;

const sorted = (rows: readonly RunSpanRow[] | undefined) =>
  [...(rows ?? [])].sort((a, b) => a.spanId.localeCompare(b.spanId) || a.startMs - b.startMs);

describe.each(TEST_DATABASE_KINDS)('loading a long run through the span cache on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'span-cache');
  });
  afterAll(() => handle?.close());

  const step = (n: number, extra: Record<string, string | number> = {}, startMs = n * 10) =>
    span(n + 1, 1, 'step', startMs, startMs + 5, { 'loop.step': n, ...extra }, { traceId: TRACE });

  it('matches a whole read after every kind of change, and reads again only what changed', async () => {
    await ingestSpans(handle.db, projectId, [
      span(1, null, 'agent', 0, null, { 'loop.run.id': 'cached' }, { traceId: TRACE }),
      ...Array.from({ length: STEPS }, (_, k) => step(k + 1)),
    ]);
    const cache = new RunSpanCache();
    const whole = () => loadRunSpans(handle.db, projectId, ['cached']);
    const cached = () => loadRunSpans(handle.db, projectId, ['cached'], cache);

    const first = await cached();
    expect(first.get('cached')).toHaveLength(STEPS + 1);
    expect(cache.spans).toBe(STEPS + 1);
    expect(sorted(first.get('cached'))).toEqual(sorted((await whole()).get('cached')));

    // A new step; step 5 sent again with a result; step 9 sent again with another start time.
    await ingestSpans(handle.db, projectId, [
      step(STEPS + 1),
      step(5, { 'gen_ai.tool.call.result': 'done' }),
      step(9, {}, 9 * 10 + 3),
    ]);
    const second = await cached();
    const expected = sorted((await whole()).get('cached'));
    expect(sorted(second.get('cached'))).toEqual(expected);
    expect(expected).toHaveLength(STEPS + 2);
    const byId = (rows: readonly RunSpanRow[] | undefined, n: number) =>
      rows?.find((r) => r.spanId === (n + 1).toString(16).padStart(16, '0'));
    // The changed rows are read again; an unchanged one is the very row held.
    expect(byId(second.get('cached'), 5)?.facts.result).toBe('done');
    expect(byId(second.get('cached'), 9)?.startMs).toBe(93);
    expect(byId(second.get('cached'), 100)).toBe(byId(first.get('cached'), 100));
    expect(byId(second.get('cached'), 5)).not.toBe(byId(first.get('cached'), 5));

    // A row of a batch held gone (retention, a delete): the batch is one row short, and so is
    // the load; a second trace mapped to the run comes in whole.
    await handle.db.execute(sql`delete from spans where project_id = ${projectId}::uuid
      and span_id = ${(50 + 1).toString(16).padStart(16, '0')}`);
    const other = 'feed'.repeat(8);
    await ingestSpans(handle.db, projectId, [
      span(9000, null, 'agent', 0, 5, {}, { traceId: other }),
    ]);
    await handle.db.execute(sql`insert into trace_runs (project_id, trace_id, run_id)
      values (${projectId}::uuid, ${other}, 'cached')
      on conflict (project_id, trace_id) do update set run_id = excluded.run_id`);
    const third = await cached();
    const wholeThird = sorted((await whole()).get('cached'));
    expect(sorted(third.get('cached'))).toEqual(wholeThird);
    expect(wholeThird).toHaveLength(STEPS + 2);
    expect(byId(third.get('cached'), 50)).toBeUndefined();
    expect(third.get('cached')?.some((r) => r.traceId === other)).toBe(true);
    expect(byId(third.get('cached'), 100)).toBe(byId(first.get('cached'), 100));

    // The trace moved to no run (its mapping gone): nothing is held over.
    await handle.db.execute(sql`delete from trace_runs where project_id = ${projectId}::uuid`);
    expect((await cached()).get('cached')).toEqual([]);
    expect((await whole()).get('cached')).toEqual([]);
  });

  it('holds no short run, and evicts the least recently used run past its capacity', () => {
    const cache = new RunSpanCache(2500);
    const spans = (n: number) => ({ groups: new Map(), size: n, latest: [], ids: new Map() });
    cache.keep('p', 'short', spans(MIN_CACHED_SPANS - 1));
    expect(cache.spans).toBe(0);
    cache.keep('p', 'a', spans(1200));
    cache.keep('p', 'b', spans(1200));
    // Reading a moves it to the end; keeping c then evicts b.
    cache.keep('p', 'a', cache.take('p', 'a')!);
    cache.keep('p', 'c', spans(1200));
    expect(cache.take('p', 'b')).toBeUndefined();
    expect(cache.take('p', 'a')?.size).toBe(1200);
    expect(cache.spans).toBe(1200);
  });
});

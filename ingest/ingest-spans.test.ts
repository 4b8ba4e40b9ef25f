import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { ensureProject } from '../db/projects';
import { rawRows } from '../db/test-database';
import { createTestDatabase, TEST_DATABASE_KINDS } from '../db/test-database';
import { ingestSpans } from './ingest-spans';
import { attrs, span } from './test-spans';

describe.each(TEST_DATABASE_KINDS)('ingestSpans on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'default');
  });
  afterAll(() => handle?.close());

  const count = async (traceId: string) =>
    Number(
      (
        await rawRows(
          handle.db,
          sql`select count(*)::int as n from spans where trace_id = ${traceId}`,
        )
      )[0]?.n,
    );

  it('stores each span of concurrent identical batches once', async () => {
    const traceId = 'feedface000000000000000000000001';
    const batch = Array.from({ length: 40 }, (_, k) =>
      span(
        k + 2,
        1,
        `step ${k}`,
        1000 + k,
        2000 + k,
        { 'loop.step': k + 1, 'loop.action': 'a' },
        { traceId },
      ),
    );
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => ingestSpans(handle.db, projectId, batch)),
    );
    expect(results.every((r) => r.storedSpans === 40)).toBe(true);
    expect(await count(traceId)).toBe(40);
  });

  it('stores each span with its own resource when a batch holds several, shared or not', async () => {
    const traceId = 'feedface000000000000000000000003';
    const shared = attrs({ 'service.name': 'shared', 'host.name': 'h1' });
    const batch = [
      span(2, null, 'a', 1000, 2000, {}, { traceId, resource: shared }),
      span(3, 2, 'b', 1001, 2000, {}, { traceId, resource: attrs({ 'service.name': 'own' }) }),
      span(4, 2, 'c', 1002, 2000, {}, { traceId, resource: shared }),
      // Equal to the shared one but another object: stored the same.
      span(5, 2, 'd', 1003, 2000, {}, { traceId, resource: attrs({ ...shared }) }),
      span(6, 2, 'e', 1004, 2000, {}, { traceId, resource: attrs({}) }),
    ];
    await ingestSpans(handle.db, projectId, batch);
    const rows = await rawRows(
      handle.db,
      sql`select name, resource from spans where trace_id = ${traceId} order by name`,
    );
    const plain = { 'service.name': 'shared', 'host.name': 'h1' };
    expect(rows).toEqual([
      { name: 'a', resource: plain },
      { name: 'b', resource: { 'service.name': 'own' } },
      { name: 'c', resource: plain },
      { name: 'd', resource: plain },
      { name: 'e', resource: {} },
    ]);
  });

  it('text with tabs, newlines, quotes and backslashes is stored exactly', async () => {
    const traceId = 'feedface000000000000000000000002';
    const tricky = 'a\tb\nc\\d\re "quoted" \\N end';
    await ingestSpans(handle.db, projectId, [
      span(
        2,
        null,
        tricky,
        1000,
        2000,
        { 'loop.goal': tricky, 'x\ty': tricky },
        { traceId, statusMessage: tricky },
      ),
    ]);
    const [row] = await rawRows(
      handle.db,
      sql`select name, status_message, attributes->>'loop.goal' as goal, attributes->>${'x\ty'} as odd
          from spans where trace_id = ${traceId}`,
    );
    expect(row).toEqual({ name: tricky, status_message: tricky, goal: tricky, odd: tricky });
  });
});

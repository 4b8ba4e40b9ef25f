// The spool on both databases: a request put at the door is one row, the workers expand it into
// exactly the spans the direct path stores, claims never overlap, the bound answers 429, and a
// backlog left by a stopped server is worked off by the next one.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import type { Database, DatabaseHandle } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { ensureProject } from '../db/projects';
import { createTestDatabase, rawRows, TEST_DATABASE_KINDS } from '../db/test-database';
import type { TestDatabaseKind } from '../db/test-database';
import {
  claimSpooled,
  countSpooledOf,
  MAX_SPOOL_ATTEMPTS,
  parseSnapshot,
  readSpoolBacklog,
  retryStuckRequests,
  sawCommitted,
  spoolRequest,
  spoolScopeOfRun,
} from '../db/write/ingest-spool';
import type { SpoolFormat } from '../db/write/ingest-spool';
import { AppError } from '../lib/app-error';
import { ingestSpans } from './ingest-spans';
import { decodeOtlpBody } from './read-body';
import { IngestSpool } from './spool';
import type { SpoolLimits } from './spool';
import { SpoolWorkers } from './spool-worker';
import type { HeldBack } from './spool-worker';
import { validateSpans } from './validate';
import type { ValidSpan } from './validate';

const CAPTURES = path.join(import.meta.dirname, '..', 'conformance', 'captures');

interface CapturedRequest {
  format: SpoolFormat;
  body: Uint8Array;
}

/** Every request of some real framework captures, decoded (inflated) as the door reads them. */
function capturedRequests(): CapturedRequest[] {
  const out: CapturedRequest[] = [];
  for (const scenario of ['mastra/long-interleaved', 'ai-sdk-6/repeat', 'python-langgraph']) {
    const dirs = readdirSync(path.join(CAPTURES, scenario), { withFileTypes: true }).some((e) =>
      e.isDirectory(),
    )
      ? readdirSync(path.join(CAPTURES, scenario)).map((d) => path.join(scenario, d))
      : [scenario];
    for (const dir of dirs) {
      const capture = JSON.parse(
        readFileSync(path.join(CAPTURES, dir, 'capture.json'), 'utf8'),
      ) as {
        requests: { file: string; contentType: string }[];
      };
      for (const request of capture.requests) {
        const raw = readFileSync(path.join(CAPTURES, dir, request.file));
        out.push({
          format: request.contentType.includes('json') ? 'json' : 'protobuf',
          body: new Uint8Array(request.file.endsWith('.gz') ? gunzipSync(raw) : raw),
        });
      }
    }
  }
  return out;
}

/** Puts each request at the door, as sent (no decoded spans kept, no traces recorded). */
async function putEach(
  spool: IngestSpool,
  projectId: string,
  list: readonly CapturedRequest[],
): Promise<void> {
  for (const request of list)
    await spool.put(projectId, { format: request.format, body: request.body });
}

const SPAN_COLUMNS = sql`trace_id, span_id, parent_span_id, name, kind, start_ms, end_ms,
  status_code, status_message, attributes::text as attributes, events::text as events,
  resource::text as resource, scope_name, facts::text as facts`;

async function spansOf(handle: DatabaseHandle, projectId: string) {
  return rawRows(
    handle.db,
    sql`select ${SPAN_COLUMNS} from spans where project_id = ${projectId}::uuid
        order by trace_id, span_id`,
  );
}

async function traceRunsOf(handle: DatabaseHandle, projectId: string) {
  return rawRows(
    handle.db,
    sql`select trace_id, run_id from trace_runs where project_id = ${projectId}::uuid
        order by trace_id`,
  );
}

function workersOn(
  handle: DatabaseHandle,
  spool: IngestSpool,
  options: { workers?: number; batch?: number } = {},
) {
  return new SpoolWorkers({
    db: () => handle.db,
    spool,
    workers: options.workers ?? 1,
    batch: options.batch ?? (handle.kind === 'pglite' ? 1 : 4),
  });
}

const requests = capturedRequests();

describe("a count's snapshot", () => {
  it('holds the transactions committed before it, not those in progress or begun after', () => {
    const snapshot = parseSnapshot('10:20:12,15');
    expect([9n, 10n, 12n, 13n, 15n, 19n, 20n, 25n].map((x) => sawCommitted(snapshot, x))).toEqual([
      true,
      true,
      false,
      true,
      false,
      true,
      false,
      false,
    ]);
    expect(parseSnapshot('5:5:')).toEqual({ xmin: 5n, xmax: 5n, inProgress: new Set() });
    expect(() => parseSnapshot('5:5')).toThrow(/not a transaction snapshot/);
  });
});

describe.each(TEST_DATABASE_KINDS)('the ingest spool on %s', (kind) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
  });
  afterAll(() => handle?.close());

  it('holds a put request as one row, counted in the backlog, until a worker stores it', async () => {
    const projectId = await ensureProject(handle.db, 'one-row');
    const spool = new IngestSpool(() => handle.db);
    const request = requests[0]!;
    await spool.put(projectId, { format: request.format, body: request.body });
    expect(spool.backlog).toMatchObject({ requests: 1, bytes: request.body.byteLength });
    const counted = await readSpoolBacklog(handle.db);
    expect(counted).toMatchObject({ requests: 1, bytes: request.body.byteLength, stuck: 0 });
    const [row] = await rawRows(handle.db, sql`select project_id, format, body from ingest_spool`);
    expect(row?.project_id).toBe(projectId);
    expect(row?.format).toBe(request.format);
    expect(Buffer.from(row?.body as Uint8Array).equals(Buffer.from(request.body))).toBe(true);
    expect(await spansOf(handle, projectId)).toEqual([]);

    const workers = workersOn(handle, spool);
    workers.start(50);
    await workers.drained();
    await workers.stop();
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 0, bytes: 0 });
    expect((await spansOf(handle, projectId)).length).toBe(
      validateSpans(decodeOtlpBody(request.format, request.body)).spans.length,
    );
  });

  it(`expands real framework captures (${requests.length} requests) into exactly the spans and runs the direct path stores`, async () => {
    const direct = await ensureProject(handle.db, 'direct');
    const spooled = await ensureProject(handle.db, 'spooled');
    for (const request of requests) {
      await ingestSpans(
        handle.db,
        direct,
        validateSpans(decodeOtlpBody(request.format, request.body)).spans,
      );
    }
    const spool = new IngestSpool(() => handle.db);
    for (const request of requests)
      await spool.put(spooled, { format: request.format, body: request.body });
    const workers = workersOn(handle, spool, { workers: 2 });
    workers.start(50);
    await workers.drained();
    await workers.stop();

    const stored = await spansOf(handle, spooled);
    expect(stored.length).toBeGreaterThan(100);
    expect(stored).toEqual(await spansOf(handle, direct));
    expect(await traceRunsOf(handle, spooled)).toEqual(await traceRunsOf(handle, direct));
  });

  it('keeps a gzipped request as it was sent, counts it decoded, and expands it into the same spans', async () => {
    const direct = await ensureProject(handle.db, 'gzip-direct');
    const spooled = await ensureProject(handle.db, 'gzip-spooled');
    const spool = new IngestSpool(() => handle.db);
    await spool.recount();
    for (const request of requests) {
      await ingestSpans(
        handle.db,
        direct,
        validateSpans(decodeOtlpBody(request.format, request.body)).spans,
      );
      await spool.put(spooled, {
        format: request.format,
        body: new Uint8Array(gzipSync(request.body)),
        gzipped: true,
        bytes: request.body.byteLength,
      });
    }
    const decoded = requests.reduce((sum, r) => sum + r.body.byteLength, 0);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({
      requests: requests.length,
      bytes: decoded,
    });
    const rows = await rawRows(
      handle.db,
      sql`select gzipped, length(body)::int as stored, bytes from ingest_spool order by id`,
    );
    expect(rows.every((r) => r.gzipped === true)).toBe(true);
    const stored = rows.reduce((sum, r) => sum + Number(r.stored), 0);
    expect(stored).toBeLessThan(decoded / 2);

    const workers = workersOn(handle, spool, { workers: 2 });
    workers.start(50);
    await workers.drained();
    await workers.stop();
    expect((await spansOf(handle, spooled)).length).toBeGreaterThan(100);
    expect(await spansOf(handle, spooled)).toEqual(await spansOf(handle, direct));
  });

  it('expands values at and past every type’s edge, sent gzipped, into the rows the direct path stores', async () => {
    const direct = await ensureProject(handle.db, 'edge-direct');
    const spooled = await ensureProject(handle.db, 'edge-spooled');
    const numbers = [
      { intValue: '9223372036854775807' },
      { intValue: '-9223372036854775808' },
      { intValue: 2 ** 53 - 1 },
      { intValue: -(2 ** 31) - 1 },
      { doubleValue: 1e308 },
      { doubleValue: 5e-324 },
      { doubleValue: -0 },
      { doubleValue: 'NaN' },
      { doubleValue: '-Infinity' },
      { stringValue: '1e400' },
      { boolValue: true },
    ];
    const texts = [
      { stringValue: 'nul \u0000 inside' },
      { stringValue: 'lone \ud800 surrogate' },
      { stringValue: 'x'.repeat(100_000) },
      { stringValue: '__proto__' },
      { stringValue: '{"langgraph_step": 1e300}' },
      { intValue: '4611686018427387904' },
    ];
    const numericKeys = [
      'loop.step',
      'loop.cost_usd',
      'gen_ai.usage.input_tokens',
      'loop.progress',
    ];
    const textKeys = ['loop.run.id', 'loop.goal', 'loop.action', 'loop.action.args'];
    const times = ['1', '18446744073709551615', '0', '1764504000000000000'];
    const spans = numbers.map((value, k) => ({
      traceId: `ed9e${String(k % 3).padStart(28, '0')}`,
      spanId: String(k + 1).padStart(16, '0'),
      parentSpanId: k < 3 ? '' : '0000000000000001',
      name: k < 3 ? 'agent' : 'step',
      startTimeUnixNano: times[k % times.length],
      endTimeUnixNano: times[(k + 1) % times.length],
      attributes: [
        { key: numericKeys[k % numericKeys.length], value },
        { key: textKeys[k % textKeys.length], value: texts[k % texts.length] },
      ],
      status: { code: k % 3, message: 'edge' },
    }));
    const body = new TextEncoder().encode(
      JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }),
    );
    const validated = validateSpans(decodeOtlpBody('json', body)).spans;
    expect(validated.length).toBeGreaterThan(5);
    await ingestSpans(handle.db, direct, validated);
    const spool = new IngestSpool(() => handle.db);
    await spool.put(spooled, {
      format: 'json',
      body: new Uint8Array(gzipSync(body)),
      gzipped: true,
      bytes: body.byteLength,
    });
    const workers = workersOn(handle, spool);
    workers.start(50);
    await workers.drained();
    await workers.stop();
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 0, stuck: 0 });
    expect(await spansOf(handle, spooled)).toEqual(await spansOf(handle, direct));
    expect(await traceRunsOf(handle, spooled)).toEqual(await traceRunsOf(handle, direct));
  });

  /** Puts each request with its decoded spans (as the door does), and stores them directly too. */
  async function putWithSpans(
    door: IngestSpool,
    projectId: string,
    direct: string,
    few: typeof requests,
    spansOfRequest: ValidSpan[][],
  ): Promise<void> {
    for (const [k, request] of few.entries()) {
      await ingestSpans(handle.db, direct, spansOfRequest[k]!);
      await door.put(projectId, {
        format: request.format,
        body: request.body,
        spans: spansOfRequest[k],
      });
    }
  }

  /** One worker stores the spool until it is empty; the errors it reported. */
  async function drainWith(door: IngestSpool): Promise<string[]> {
    const errors: string[] = [];
    const workers = new SpoolWorkers({
      db: () => handle.db,
      spool: door,
      workers: 1,
      batch: handle.kind === 'pglite' ? 1 : 4,
      onError: (message) => errors.push(message),
    });
    workers.start(50);
    await workers.drained();
    await workers.stop();
    return errors;
  }

  it('stores the spans the door decoded without reading the body back, and the others from their bodies', async () => {
    const projectId = await ensureProject(handle.db, 'held');
    const direct = await ensureProject(handle.db, 'held-direct');
    const few = requests.slice(0, 6);
    const spansOfRequest = few.map((r) => validateSpans(decodeOtlpBody(r.format, r.body)).spans);
    // Room for the first two requests' spans only: the rest are spooled without theirs.
    const room = spansOfRequest[0]!.length + spansOfRequest[1]!.length;
    const door = new IngestSpool(() => handle.db, undefined, undefined, room);
    await putWithSpans(door, projectId, direct, few, spansOfRequest);
    const held = door.heldIds();
    expect(held).toHaveLength(2);
    // The held requests' bodies spoiled: only the held spans can store them.
    await handle.db.execute(
      sql`update ingest_spool set body = '\\xffff'::bytea where id = any(${`{${held.join(',')}}`}::bigint[])`,
    );
    // A claim told which it holds leaves those bodies out.
    await handle.db.transaction(async (tx) => {
      const claimed = await claimSpooled(tx, 10, { held });
      expect(claimed.map((r) => r.body === null)).toEqual([true, true, false, false, false, false]);
    });
    const errors = await drainWith(door);
    expect(errors).toEqual([]);
    expect(door.heldIds()).toEqual([]);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 0, stuck: 0 });
    expect(await spansOf(handle, projectId)).toEqual(await spansOf(handle, direct));
  });

  it('reads a body back when the spans it was claimed without are let go before the worker uses them', async () => {
    const projectId = await ensureProject(handle.db, 'let-go');
    const direct = await ensureProject(handle.db, 'let-go-direct');
    const few = requests.slice(0, 3);
    const spansOfRequest = few.map((r) => validateSpans(decodeOtlpBody(r.format, r.body)).spans);
    const door = new IngestSpool(() => handle.db);
    await putWithSpans(door, projectId, direct, few, spansOfRequest);
    expect(door.heldIds()).toHaveLength(few.length);
    // The race: a claim leaves the held bodies out, then (a recount that saw the spool empty,
    // say) the spans are let go before the worker reaches them.
    const heldSpans = door.heldSpans.bind(door);
    let lookups = 0;
    door.heldSpans = (id) => {
      lookups++;
      door.release([id]);
      return heldSpans(id);
    };
    const errors = await drainWith(door);
    expect(lookups).toBe(few.length);
    expect(errors).toEqual([]);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 0, stuck: 0 });
    expect(await spansOf(handle, projectId)).toEqual(await spansOf(handle, direct));
  });

  it("leaves a held-back project's requests waiting, counted as its share, and stores them once let go", async () => {
    const lagging = await ensureProject(handle.db, 'held-lagging');
    const neighbour = await ensureProject(handle.db, 'held-neighbour');
    const spool = new IngestSpool(() => handle.db);
    const [first, second] = requests;
    await spool.put(lagging, { format: first!.format, body: first!.body });
    await spool.put(neighbour, { format: second!.format, body: second!.body });
    expect(spool.shareOf(lagging)).toEqual({ requests: 1, bytes: first!.body.byteLength });
    let held: HeldBack = { everyone: true, projects: [] };
    const workers = new SpoolWorkers({
      db: () => handle.db,
      spool,
      workers: 1,
      batch: 4,
      heldBack: () => held,
    });
    workers.start(50);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 2 });
    held = { everyone: false, projects: [lagging] };
    await expect.poll(() => spansOf(handle, neighbour).then((s) => s.length)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await spansOf(handle, lagging)).toEqual([]);
    // Counted again from the database, the share is the one request still waiting.
    await spool.recount();
    expect(spool.shareOf(lagging)).toEqual({ requests: 1, bytes: first!.body.byteLength });
    expect(spool.shareOf(neighbour)).toEqual({ requests: 0, bytes: 0 });
    held = { everyone: false, projects: [] };
    await workers.drained();
    await workers.stop();
    expect((await spansOf(handle, lagging)).length).toBe(
      validateSpans(decodeOtlpBody(first!.format, first!.body)).spans.length,
    );
  });

  it("wakes workers holding a project back for a neighbour's put, and not for that project's", async () => {
    const lagging = await ensureProject(handle.db, 'kick-lagging');
    const neighbour = await ensureProject(handle.db, 'kick-neighbour');
    const [first, second, third] = requests;
    const spool = new IngestSpool(() => handle.db);
    const workers = new SpoolWorkers({
      db: () => handle.db,
      spool,
      workers: 1,
      batch: 4,
      heldBack: () => ({ everyone: false, projects: [lagging] }),
    });
    spool.whenPut((projectId) => workers.kick(projectId));
    await spool.put(lagging, { format: first!.format, body: first!.body });
    // No poll within this test: only a put can wake the worker once it rests holding back.
    workers.start(600_000);
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await spool.put(lagging, { format: third!.format, body: third!.body });
      await spool.put(neighbour, { format: second!.format, body: second!.body });
      await expect
        .poll(() => spansOf(handle, neighbour).then((s) => s.length), { timeout: 3000 })
        .toBe(validateSpans(decodeOtlpBody(second!.format, second!.body)).spans.length);
      expect(await spansOf(handle, lagging)).toEqual([]);
      expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 2 });
    } finally {
      await workers.stop();
      await handle.db.execute(sql`delete from ingest_spool`);
    }
  });

  it('answers 429 with Retry-After only once the bound is reached: requests, bytes, age', async () => {
    const projectId = await ensureProject(handle.db, 'bounded');
    let now = 1_000_000;
    const limits: SpoolLimits = { maxRequests: 3, maxBytes: 1_000_000, maxAgeMs: 60_000 };
    const spool = new IngestSpool(
      () => handle.db,
      limits,
      () => now,
    );
    await spool.recount();
    const body = new Uint8Array(400_000);
    // Of three projects: no one of them passes its own part (the quarter kept for others).
    const [second, third] = [
      await ensureProject(handle.db, 'bounded-2'),
      await ensureProject(handle.db, 'bounded-3'),
    ];
    await spool.put(projectId, { format: 'protobuf', body: body });
    await spool.put(second, { format: 'protobuf', body: body });
    // Two wait: a third of 400 kB would pass 1 MB.
    const bytes = refusal(() => spool.checkRoom(body.byteLength));
    expect(bytes.status).toBe(429);
    expect(bytes.message).toMatch(/800000 bytes of requests wait to be stored; retry after \d+ s/);
    expect(bytes.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    await spool.put(third, { format: 'protobuf', body: new Uint8Array(10) });
    const count = refusal(() => spool.checkRoom(10));
    expect(count.message).toMatch(/^3 requests wait to be stored/);
    await expect(
      spool.put(projectId, { format: 'protobuf', body: new Uint8Array(10) }),
    ).rejects.toMatchObject({
      code: 'rate_limited',
    });
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 3 });

    await handle.db.execute(sql`delete from ingest_spool`);
    const aged = new IngestSpool(
      () => handle.db,
      { ...limits, maxRequests: 100 },
      () => now,
    );
    await aged.put(projectId, { format: 'protobuf', body: new Uint8Array(10) });
    await aged.recount();
    aged.checkRoom(10);
    now += 61_000;
    expect(refusal(() => aged.checkRoom(10)).message).toMatch(
      /^the oldest request waiting to be stored arrived 61 s ago/,
    );
    await handle.db.execute(sql`delete from ingest_spool`);
  });

  it("counts a put once whichever side of a count's snapshot its commit fell on", async () => {
    const projectId = await ensureProject(handle.db, 'put-during-count');
    await handle.db.execute(sql`delete from ingest_spool`);
    const body = new Uint8Array(100);
    const share = (requests: number) => ({ requests, bytes: requests * body.byteLength });
    const door = withLateAnswers(handle.db);
    const spool = new IngestSpool(() => door.db);
    await spool.recount(handle.db);

    // Committed before the count reads, heard by the door after: the count holds it.
    const heard = door.holdAnswers();
    const put = spool.put(projectId, { format: 'protobuf', body });
    await expect.poll(() => readSpoolBacklog(handle.db).then((b) => b.requests)).toBe(1);
    await spool.recount(handle.db);
    heard();
    await put;
    expect(spool.backlog.requests).toBe(1);
    expect(spool.shareOf(projectId)).toEqual(share(1));

    // Committed after the count read, heard before the count's answer: on top of it.
    const counter = withLateAnswers(handle.db);
    const answered = counter.holdAnswers();
    const count = spool.recount(counter.db);
    await counter.answered;
    await spool.put(projectId, { format: 'protobuf', body });
    expect(spool.shareOf(projectId)).toEqual(share(2));
    answered();
    await count;
    expect(spool.shareOf(projectId)).toEqual(share(2));
    expect(spool.backlog).toMatchObject({ requests: 2, bytes: 200 });

    // The next count holds both, and nothing stays on top.
    await spool.recount(handle.db);
    expect(spool.shareOf(projectId)).toEqual(share(2));
    expect(spool.backlog.requests).toBe(2);
    await handle.db.execute(sql`delete from ingest_spool`);
    await spool.recount(handle.db);
    expect(spool.backlog.requests).toBe(0);
    expect(spool.shareOf(projectId)).toEqual(share(0));
  });

  it('keeps the last quarter of the bound for projects holding less than a quarter of it', async () => {
    const flooding = await ensureProject(handle.db, 'kept-flooding');
    const neighbour = await ensureProject(handle.db, 'kept-neighbour');
    await handle.db.execute(sql`delete from ingest_spool`);
    const small = new Uint8Array(10);
    const put = (spool: IngestSpool, projectId: string, body = small) =>
      spool.put(projectId, { format: 'protobuf', body });
    const spool = new IngestSpool(() => handle.db, {
      maxRequests: 8,
      maxBytes: 1_000_000,
      maxAgeMs: 60_000,
    });
    for (let k = 0; k < 6; k++) await put(spool, flooding);
    await expect(put(spool, flooding)).rejects.toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(
        /^6 requests of this project wait to be stored, and the rest of the spool is kept for other projects; retry after \d+ s$/,
      ) as unknown,
      retryAfterSeconds: expect.any(Number) as unknown,
    });
    // The neighbour takes the quarter left, and then the whole bound holds.
    await put(spool, neighbour);
    await put(spool, neighbour);
    await expect(put(spool, neighbour)).rejects.toMatchObject({
      message: expect.stringMatching(/^8 requests wait to be stored/) as unknown,
    });
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 8 });
    await handle.db.execute(sql`delete from ingest_spool`);

    // By bytes alike: three quarters of 1 MB for one project, a newcomer's request still taken.
    const bytes = new IngestSpool(() => handle.db, {
      maxRequests: 100,
      maxBytes: 1_000_000,
      maxAgeMs: 60_000,
    });
    const quarter = new Uint8Array(250_000);
    for (let k = 0; k < 3; k++) await put(bytes, flooding, quarter);
    await expect(put(bytes, flooding, quarter)).rejects.toMatchObject({
      message: expect.stringMatching(/^750000 bytes of requests of this project wait/) as unknown,
    });
    await put(bytes, neighbour, new Uint8Array(200_000));
    expect(bytes.backlog).toMatchObject({ requests: 4, bytes: 950_000 });
    await handle.db.execute(sql`delete from ingest_spool`);

    // Side by side: 40 puts checked at once take exactly the project's part (30 of 40), never more.
    const crowded = new IngestSpool(() => handle.db, {
      maxRequests: 40,
      maxBytes: 1_000_000,
      maxAgeMs: 60_000,
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, () => put(crowded, flooding)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(30);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 30 });
    expect(crowded.backlog.requests).toBe(30);
    await handle.db.execute(sql`delete from ingest_spool`);
  });

  it('claims project by project in turn, each its oldest requests, then round again', async () => {
    const [a, b] = (
      await Promise.all(['turn-a', 'turn-b'].map((name) => ensureProject(handle.db, name)))
    ).sort();
    await handle.db.execute(sql`delete from ingest_spool`);
    const ids: Record<string, number[]> = { [a!]: [], [b!]: [] };
    for (const projectId of [a!, a!, a!, b!]) {
      const { id } = await spoolRequest(handle.db, projectId, {
        format: 'protobuf',
        body: new Uint8Array(1),
      });
      ids[projectId]!.push(id);
    }
    const claims = await handle.db.transaction(async (tx) => {
      const first = await claimSpooled(tx, 2);
      const next = await claimSpooled(tx, 2, { after: first.at(-1)!.projectId });
      // Past the last project: from the first again (this transaction's own locks do not skip).
      const again = await claimSpooled(tx, 2, { after: next.at(-1)!.projectId });
      return [first, next, again].map((claim) => claim.map((r) => r.id));
    });
    expect(claims).toEqual([ids[a!]!.slice(0, 2), ids[b!], ids[a!]!.slice(0, 2)]);
    await handle.db.execute(sql`delete from ingest_spool`);
  });

  it('lets a read store its project’s waiting requests when few wait, and not when many do', async () => {
    const projectId = await ensureProject(handle.db, 'catch-up');
    const spool = new IngestSpool(() => handle.db);
    // Workers that never started: only the read's catch-up stores anything here.
    const workers = workersOn(handle, spool);
    const few = requests.slice(0, 3);
    await putEach(spool, projectId, few);
    expect(await workers.catchUp(projectId, { upTo: 3 })).toBe(true);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 0 });
    const stored = (await spansOf(handle, projectId)).length;
    expect(stored).toBeGreaterThan(0);

    await putEach(spool, projectId, requests.slice(0, 4));
    expect(await workers.catchUp(projectId, { upTo: 3 })).toBe(false);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 4 });
    await handle.db.execute(sql`delete from ingest_spool`);
  });

  it('lets the guard wait for the workers when many wait, and give up at its deadline', async () => {
    const projectId = await ensureProject(handle.db, 'wait-for-spool');
    const spool = new IngestSpool(() => handle.db);
    const workers = workersOn(handle, spool);
    const four = requests.slice(0, 4);
    await putEach(spool, projectId, four);
    // More than it stores itself and no worker running: it waits its time, then says so.
    const started = Date.now();
    expect(await workers.storedUpToNow(projectId, { upTo: 3, timeoutMs: 150 })).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 4 });

    // With the workers running it returns once they have stored all four.
    const waiting = workers.storedUpToNow(projectId, { upTo: 3, timeoutMs: 30_000 });
    workers.start(20);
    try {
      expect(await waiting).toBe(true);
      expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 0 });
      expect((await spansOf(handle, projectId)).length).toBeGreaterThan(0);
      // Nothing waiting: it answers at once.
      expect(await workers.storedUpToNow(projectId, { timeoutMs: 0 })).toBe(true);
    } finally {
      await workers.stop();
    }
  });

  it("counts in a run's scope the requests that name it, hold its traces, or may", async () => {
    const projectId = await ensureProject(handle.db, 'run-scope');
    await handle.db.execute(sql`insert into trace_runs (project_id, trace_id, run_id)
      values (${projectId}::uuid, 't1', 'R')`);
    const body = requests[0]!;
    const rows: [string, string[], string[]][] = [
      ['A: a trace mapped to the run', ['t1'], []],
      ["B: a new trace's spans, without the run's id", ['t2'], []],
      ['C: the span of that trace naming the run', ['t2'], ['R']],
      ["D: another run's trace", ['t3'], []],
      ['E: spooled before traces were kept', [], []],
      ['F: the trace whose id is the run', ['R'], []],
      ['G: another run named', ['t4'], ['R2']],
    ];
    for (const [, traceIds, runIds] of rows) {
      await spoolRequest(handle.db, projectId, { ...body, traceIds, runIds });
    }
    const count = async (runId: string) =>
      countSpooledOf(handle.db, await spoolScopeOfRun(handle.db, projectId, runId));
    expect(await count('R')).toBe(5);
    expect(await count('R2')).toBe(2);
    expect(await count('unknown')).toBe(1);
    expect(await countSpooledOf(handle.db, { projectId })).toBe(rows.length);
    await handle.db.execute(sql`delete from ingest_spool`);
  });

  it("follows a trace that a stored request maps to the run to that trace's other requests", async () => {
    const projectId = await ensureProject(handle.db, 'run-closure');
    const spool = new IngestSpool(() => handle.db);
    const workers = new SpoolWorkers({ db: () => handle.db, spool, workers: 1, batch: 1 });
    const trace = 'c105'.repeat(8);
    // One span each: the first names the run, the second (sent after it) does not.
    const oneSpan = (spanId: string, attributes: object[]) => {
      const body = new TextEncoder().encode(
        JSON.stringify({
          resourceSpans: [
            {
              resource: { attributes: [] },
              scopeSpans: [
                {
                  scope: { name: 'test' },
                  spans: [
                    {
                      traceId: trace,
                      spanId,
                      name: 'step',
                      kind: 1,
                      startTimeUnixNano: '1790000000000000000',
                      endTimeUnixNano: '1790000001000000000',
                      attributes,
                    },
                  ],
                },
              ],
            },
          ],
        }),
      );
      return {
        format: 'json' as const,
        body,
        spans: validateSpans(decodeOtlpBody('json', body)).spans,
      };
    };
    await spool.put(
      projectId,
      oneSpan('a1'.repeat(8), [{ key: 'loop.run.id', value: { stringValue: 'closure-run' } }]),
    );
    await spool.put(projectId, oneSpan('b2'.repeat(8), []));
    expect(await workers.storedUpToNow(projectId, { runId: 'closure-run', timeoutMs: 2_000 })).toBe(
      true,
    );
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 0 });
    await handle.db.execute(sql`delete from ingest_spool`);
  });

  it("stores a run's own requests for a read of that run, past its neighbours' backlog", async () => {
    const projectId = await ensureProject(handle.db, 'run-first');
    const spool = new IngestSpool(() => handle.db);
    // No worker runs: what is stored, the reads stored themselves.
    const workers = workersOn(handle, spool);
    const decoded = requests.map((r) => ({
      ...r,
      spans: validateSpans(decodeOtlpBody(r.format, r.body)).spans,
    }));
    const mine = decoded.find((r) => new Set(r.spans.map((s) => s.traceId)).size === 1)!;
    const trace = mine.spans[0]!.traceId;
    const others = decoded.filter((r) => r.spans.every((s) => s.traceId !== trace));
    expect(others.length).toBeGreaterThan(0);
    await spool.put(projectId, mine);
    expect(await workers.catchUp(projectId)).toBe(true);
    const [mapped] = await rawRows(
      handle.db,
      sql`select run_id from trace_runs where project_id = ${projectId}::uuid
        and trace_id = ${trace}`,
    );
    const runId = String(mapped?.run_id);

    // Forty requests of other traces wait, then one of the run's.
    for (let k = 0; k < 40; k++) await spool.put(projectId, others[k % others.length]!);
    await spool.put(projectId, mine);
    expect(await workers.catchUp(projectId)).toBe(false);
    expect(await workers.catchUp(projectId, { runId })).toBe(true);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 40 });
    // The guard's wait, the same way.
    await spool.put(projectId, mine);
    expect(await workers.storedUpToNow(projectId, { runId, timeoutMs: 300 })).toBe(true);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 40 });
    // A row spooled before trace ids were kept may hold any trace: the run's read stores it.
    await spoolRequest(handle.db, projectId, { format: others[0]!.format, body: others[0]!.body });
    expect(await workers.catchUp(projectId, { runId })).toBe(true);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 40 });
    await handle.db.execute(sql`delete from ingest_spool`);
  });

  it('lets the guard store its project itself, however many wait, while the workers hold it back', async () => {
    const projectId = await ensureProject(handle.db, 'guard-held-back');
    const spool = new IngestSpool(() => handle.db);
    const workers = new SpoolWorkers({
      db: () => handle.db,
      spool,
      workers: 1,
      batch: 2,
      heldBack: () => ({ everyone: false, projects: [projectId] }),
    });
    await putEach(spool, projectId, requests.slice(0, 5));
    // Five wait, more than it stores itself otherwise, and the workers (running) skip them.
    workers.start(20);
    try {
      const started = Date.now();
      expect(await workers.storedUpToNow(projectId, { upTo: 3, timeoutMs: 10_000 })).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 0 });
      // A read that does not wait (catchUp) still stores only a few.
      await putEach(spool, projectId, requests.slice(0, 4));
      expect(await workers.catchUp(projectId, { upTo: 3 })).toBe(false);
    } finally {
      await workers.stop();
      await handle.db.execute(sql`delete from ingest_spool`);
    }
  });

  it('leaves a request it cannot store after a few tries (stuck), and stores the ones after it', async () => {
    const projectId = await ensureProject(handle.db, 'poison');
    const spool = new IngestSpool(() => handle.db);
    // Not OTLP at all: the door would have refused it, so only a damaged row looks like this.
    await spoolRequest(handle.db, projectId, {
      format: 'protobuf',
      body: new Uint8Array([0xff, 0xff, 0xff]),
    });
    const good = requests[1]!;
    await spool.put(projectId, { format: good.format, body: good.body });
    const errors: string[] = [];
    const workers = new SpoolWorkers({
      db: () => handle.db,
      spool,
      workers: 1,
      batch: 1,
      onError: (message) => errors.push(message),
    });
    workers.start(20);
    await workers.drained();
    await workers.stop();
    expect(errors).toHaveLength(MAX_SPOOL_ATTEMPTS);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 1, stuck: 1 });
    const [stuck] = await rawRows(handle.db, sql`select attempts, last_error from ingest_spool`);
    expect(stuck?.attempts).toBe(MAX_SPOOL_ATTEMPTS);
    expect(String(stuck?.last_error)).not.toBe('');
    expect((await spansOf(handle, projectId)).length).toBeGreaterThan(0);
    await handle.db.execute(sql`delete from ingest_spool`);
  });

  it('gives stuck requests their tries again at a start: what a newer version can store is stored', async () => {
    const projectId = await ensureProject(handle.db, 'stuck-then-stored');
    const spool = new IngestSpool(() => handle.db);
    const good = requests[0]!;
    await spoolRequest(handle.db, projectId, { format: good.format, body: good.body });
    // As an older version that failed it five times left it.
    await handle.db.execute(sql`update ingest_spool set attempts = ${MAX_SPOOL_ATTEMPTS}`);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 1, stuck: 1 });
    expect(await retryStuckRequests(handle.db)).toBe(1);
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 1, stuck: 0 });
    const workers = new SpoolWorkers({ db: () => handle.db, spool, workers: 1, batch: 1 });
    workers.start(20);
    await workers.drained();
    await workers.stop();
    expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: 0, stuck: 0 });
    expect((await spansOf(handle, projectId)).length).toBeGreaterThan(0);
    expect(await retryStuckRequests(handle.db)).toBe(0);
  });
});

describe('several workers and servers on one Postgres', () => {
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  beforeAll(async () => {
    first = await createTestDatabase('postgres');
    second = await openDatabase({ databaseUrl: first.url, maxConnections: 4 });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('never claim one request twice: concurrent claims are disjoint', async () => {
    const projectId = await ensureProject(first.db, 'claims');
    for (let k = 0; k < 10; k++) {
      await spoolRequest(first.db, projectId, { format: 'protobuf', body: new Uint8Array([k]) });
    }
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let firstIds: number[] = [];
    let gotFirst!: () => void;
    const firstClaimed = new Promise<void>((resolve) => (gotFirst = resolve));
    const holding = first.db.transaction(async (tx) => {
      firstIds = (await claimSpooled(tx, 4)).map((r) => r.id);
      gotFirst();
      await held;
    });
    await firstClaimed;
    const secondIds = await second.db.transaction(async (tx) =>
      (await claimSpooled(tx, 100)).map((r) => r.id),
    );
    release();
    await holding;
    expect(firstIds).toHaveLength(4);
    expect(secondIds).toHaveLength(6);
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);
    await first.db.execute(sql`delete from ingest_spool`);
  });

  it('two servers’ workers share one backlog and expand each request exactly once', async () => {
    const projectId = await ensureProject(first.db, 'shared');
    const door = new IngestSpool(() => first.db);
    const copies = 4;
    for (let c = 0; c < copies; c++) {
      for (const request of requests)
        await door.put(projectId, { format: request.format, body: request.body });
    }
    const expanded = [0, 0];
    const servers = [first, second].map((handle, k) => {
      const spool = new IngestSpool(() => handle.db);
      const note = spool.noteDrained.bind(spool);
      spool.noteDrained = (n, ms) => {
        expanded[k]! += n;
        note(n, ms);
      };
      return workersOn(handle, spool, { workers: 2, batch: 4 });
    });
    for (const workers of servers) workers.start(20);
    await servers[0]!.drained();
    await Promise.all(servers.map((w) => w.stop()));
    expect(expanded[0]! + expanded[1]!).toBe(copies * requests.length);
    expect(expanded[0]).toBeGreaterThan(0);
    expect(expanded[1]).toBeGreaterThan(0);
    const [dupes] = await rawRows(
      first.db,
      sql`select count(*)::int as n, count(distinct (trace_id, span_id))::int as d from spans
          where project_id = ${projectId}::uuid`,
    );
    expect(dupes?.n).toBe(dupes?.d);
  });
});

describe.each(TEST_DATABASE_KINDS)('a backlog across a restart on %s', (kind) => {
  it('is worked off by the next start: every spooled request stored once', async () => {
    const { open, close } = await restartable(kind);
    let handle = await open();
    const projectId = await ensureProject(handle.db, 'restart');
    const door = new IngestSpool(() => handle.db);
    for (const request of requests)
      await door.put(projectId, { format: request.format, body: request.body });
    const expected = new Set<string>();
    for (const request of requests) {
      for (const span of validateSpans(decodeOtlpBody(request.format, request.body)).spans) {
        expected.add(`${span.traceId}:${span.spanId}`);
      }
    }
    await handle.close();

    handle = await open();
    try {
      expect(await readSpoolBacklog(handle.db)).toMatchObject({ requests: requests.length });
      const current = handle;
      const workers = workersOn(current, new IngestSpool(() => current.db));
      workers.start(20);
      await workers.drained();
      await workers.stop();
      const stored = await rawRows(
        handle.db,
        sql`select trace_id || ':' || span_id as id from spans where project_id = ${projectId}::uuid`,
      );
      expect(stored.length).toBe(expected.size);
      expect(new Set(stored.map((r) => String(r.id)))).toEqual(expected);
    } finally {
      await handle.close();
      await close();
    }
  });
});

/**
 * `db` whose answers, while held, reach the caller only once released: the statement has run
 * (and committed) in the database, the caller has not heard yet. `answered` resolves when the
 * first held answer is in.
 */
function withLateAnswers(db: Database) {
  let gate: Promise<void> | null = null;
  let gotAnswer!: () => void;
  const answered = new Promise<void>((resolve) => (gotAnswer = resolve));
  const late = new Proxy(db, {
    get(target, key, receiver) {
      if (key !== 'execute') return Reflect.get(target, key, receiver) as unknown;
      return async (query: SQL) => {
        const result = await target.execute(query);
        if (gate) {
          gotAnswer();
          await gate;
        }
        return result;
      };
    },
  });
  return {
    db: late,
    answered,
    holdAnswers(): () => void {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
  };
}

function refusal(act: () => void): AppError {
  try {
    act();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A database that survives its handle being closed: a PGlite folder, or a Postgres database. */
async function restartable(kind: TestDatabaseKind) {
  if (kind === 'pglite') {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'loopscope-spool-')), 'data');
    return {
      open: async () => {
        const handle = await openDatabase({ dataDir });
        await migrateDatabase(handle);
        return handle;
      },
      close: async () => {},
    };
  }
  const keeper = await createTestDatabase('postgres');
  return {
    open: () => openDatabase({ databaseUrl: keeper.url, maxConnections: 2 }),
    close: () => keeper.close(),
  };
}

// The spool's SQL: the door's one insert, the workers' claim and delete, and the backlog's size.
// What a row holds and why: db/schema/ingest-spool.ts.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { asPgArray, column, queryRows } from '../sql';
import type { Executor, Transaction } from '../sql';

export type SpoolFormat = 'json' | 'protobuf';

/** A request as the door keeps it. */
export interface SpoolEntry {
  format: SpoolFormat;
  /** As it was sent: gzip when `gzipped`. */
  body: Uint8Array;
  gzipped?: boolean;
  /** The body's size decoded (what the spool's bound counts); `body`'s own size by default. */
  bytes?: number;
  /** The traces of its spans; none known, it counts as holding any run's. */
  traceIds?: readonly string[];
  /** The runs its spans name (`loop.run.id`). */
  runIds?: readonly string[];
}

export interface SpooledRequest {
  id: number;
  projectId: string;
  format: SpoolFormat;
  /** Null when the claim was told its caller holds the request decoded (`claimSpooled`). */
  body: Uint8Array | null;
  gzipped: boolean;
  bytes: number;
}

export interface SpoolBacklog {
  /** Requests waiting to be expanded (failed ones included). */
  requests: number;
  bytes: number;
  /** Age of the oldest waiting request, ms; 0 when none waits. */
  oldestAgeMs: number;
  /** Requests whose expansion failed `MAX_SPOOL_ATTEMPTS` times and that no worker claims. */
  stuck: number;
}

/** What one project has waiting in the spool. */
export interface SpooledShare {
  requests: number;
  bytes: number;
}

/** The backlog as counted, with each project's share of it. */
export interface SpoolCount extends SpoolBacklog {
  byProject: ReadonlyMap<string, SpooledShare>;
  /** The transactions the count saw committed: which puts it holds (`sawCommitted`). */
  snapshot: TransactionSnapshot | null;
}

/** `pg_current_snapshot()`: transactions below `xmin` are over, from `xmax` on not yet begun. */
export interface TransactionSnapshot {
  xmin: bigint;
  xmax: bigint;
  inProgress: ReadonlySet<bigint>;
}

/** A put's row and the transaction that committed it. */
export interface SpooledId {
  id: number;
  xid: bigint;
}

/** Whether a committed transaction's rows are in what a statement with `snapshot` read. */
export function sawCommitted(snapshot: TransactionSnapshot, xid: bigint): boolean {
  if (xid < snapshot.xmin) return true;
  return xid < snapshot.xmax && !snapshot.inProgress.has(xid);
}

/** Reads `pg_current_snapshot()`'s text, `xmin:xmax:xip,...`. */
export function parseSnapshot(text: string): TransactionSnapshot {
  const match = /^(\d+):(\d+):([\d,]*)$/.exec(text);
  if (!match) throw new Error(`not a transaction snapshot: ${text.slice(0, 80)}`);
  const inProgress = new Set(match[3] ? match[3].split(',').map((x) => BigInt(x)) : []);
  return { xmin: BigInt(match[1]!), xmax: BigInt(match[2]!), inProgress };
}

/** Expansions of one request that may fail before it is left for an operator (and health). */
export const MAX_SPOOL_ATTEMPTS = 5;

/** The door's write: one row, one statement, committed on its own; the row's id and xid. */
export async function spoolRequest(
  db: Executor,
  projectId: string,
  {
    format,
    body,
    gzipped = false,
    bytes = body.byteLength,
    traceIds = [],
    runIds = [],
  }: SpoolEntry,
): Promise<SpooledId> {
  const [row] = await queryRows(
    db,
    sql`
    insert into ingest_spool (project_id, format, body, gzipped, bytes, trace_ids, run_ids)
    values (${projectId}::uuid, ${format}, ${bytesParam(body)}, ${gzipped}, ${bytes},
      ${asPgArray(traceIds)}::text[], ${asPgArray(runIds)}::text[])
    returning id, pg_current_xact_id()::text as xid
  `,
    z.object({ id: column.number, xid: column.text }),
  );
  return { id: row!.id, xid: BigInt(row!.xid) };
}

/** One project's waiting requests; with `run`, only those that may hold that run's spans. */
export interface SpoolScope {
  projectId: string;
  /** The run, and the traces mapped to it so far. */
  run?: { id: string; traceIds: readonly string[] };
}

/** Which waiting requests a claim takes. */
export interface SpoolClaim {
  /** One project's only (a read catching up on it), oldest first. */
  of?: SpoolScope | null;
  /** Requests the caller holds decoded: their bodies are not sent (the column is large). */
  held?: readonly number[];
  /** Projects whose requests wait for now (their derivation is behind). */
  except?: readonly string[];
  /**
   * The project served last: projects after it (in id order) are served first, each its oldest
   * requests, wrapping around, so a project with a large backlog does not hold a neighbour's few
   * behind it.
   */
  after?: string | null;
}

/**
 * Takes up to `limit` waiting requests for the rest of `tx`: rows another transaction holds are
 * skipped (several workers, several servers), never waited for.
 */
export async function claimSpooled(
  tx: Transaction,
  limit: number,
  { of = null, held = [], except = [], after = null }: SpoolClaim = {},
): Promise<SpooledRequest[]> {
  const claim = (from: string | null) =>
    queryRows(
      tx,
      // A read catching up on its project waits for the rows a worker holds (FOR UPDATE): once
      // that worker commits they are gone, so the read then sees their spans.
      sql`
      select id, project_id, format, gzipped, bytes,
        case when id = any(${asPgArray(held.map(String))}::bigint[]) then null else body end as body
      from ingest_spool
      where attempts < ${MAX_SPOOL_ATTEMPTS}
        ${of ? inScope(of) : sql``}
        ${from !== null ? sql`and project_id > ${from}::uuid` : sql``}
        ${except.length > 0 ? sql`and project_id <> all(${asPgArray(except)}::uuid[])` : sql``}
      order by project_id, id
      limit ${limit}
      for update ${of ? sql`` : sql`skip locked`}
    `,
      z.object({
        id: column.number,
        project_id: column.text,
        format: z.enum(['json', 'protobuf']),
        body: z.instanceof(Uint8Array).nullable(),
        gzipped: column.boolean,
        bytes: column.number,
      }),
    );
  let rows = await claim(of ? null : after);
  // Past the last project: round again from the first.
  if (rows.length === 0 && after !== null && !of) rows = await claim(null);
  return rows.map((r) => ({
    id: r.id,
    projectId: r.project_id,
    format: r.format,
    body: r.body,
    gzipped: r.gzipped,
    bytes: r.bytes,
  }));
}

/** One claimed request's body, for a claim that left it out and then found it not held. */
export async function spooledBody(tx: Transaction, id: number): Promise<Uint8Array> {
  const [row] = await queryRows(
    tx,
    sql`select body from ingest_spool where id = ${id}`,
    z.object({ body: z.instanceof(Uint8Array) }),
  );
  if (!row) throw new Error(`spooled request ${id} is gone`);
  return row.body;
}

/** Removes expanded requests, in the transaction that stored their spans. */
export async function deleteSpooled(tx: Transaction, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(
    sql`delete from ingest_spool where id = any(${asPgArray(ids.map(String))}::bigint[])`,
  );
}

/** Counts a failed expansion against a request (after its transaction rolled back). */
export async function recordSpoolFailure(db: Executor, id: number, error: string): Promise<void> {
  await db.execute(sql`
    update ingest_spool set attempts = attempts + 1, last_error = ${error.slice(0, 2000)}
    where id = ${id}
  `);
}

/**
 * Stuck requests get their tries again: at a start, a new version may store what an old one
 * could not (a run id past an index entry's size, say). Their last error stays until a try ends.
 */
export async function retryStuckRequests(db: Executor): Promise<number> {
  const rows = await queryRows(
    db,
    sql`update ingest_spool set attempts = 0 where attempts >= ${MAX_SPOOL_ATTEMPTS}
        returning id`,
    z.object({ id: column.number }),
  );
  return rows.length;
}

/** What a read of one run waits for: its requests (`inScope`), with its traces mapped so far. */
export async function spoolScopeOfRun(
  db: Executor,
  projectId: string,
  runId: string,
): Promise<SpoolScope> {
  const rows = await queryRows(
    db,
    sql`select trace_id from trace_runs
      where project_id = ${projectId}::uuid and run_id = ${runId}`,
    z.object({ trace_id: column.text }),
  );
  return { projectId, run: { id: runId, traceIds: rows.map((r) => r.trace_id) } };
}

/**
 * The scope's rows: the project's; of a run, those that name it, or hold one of its traces
 * (mapped already, or of a waiting request that names it: a trace's spans without the run's id
 * join it once the span naming it is stored), or whose run is its trace id. A row from before
 * traces were kept may hold any run's.
 */
function inScope({ projectId, run }: SpoolScope): SQL {
  const project = sql`and project_id = ${projectId}::uuid`;
  if (run === undefined) return project;
  return sql`${project} and (cardinality(trace_ids) = 0 or ${run.id} = any(run_ids)
    or ${run.id} = any(trace_ids)
    or trace_ids && (${asPgArray(run.traceIds)}::text[] || array(
      select unnest(n.trace_ids) from ingest_spool n
      where n.project_id = ${projectId}::uuid and ${run.id} = any(n.run_ids))))`;
}

/** Requests of a scope waiting (claimable ones); with `upToId`, those spooled up to it. */
export async function countSpooledOf(
  db: Executor,
  scope: SpoolScope,
  upToId?: number,
): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`select count(*) as n from ingest_spool
      where attempts < ${MAX_SPOOL_ATTEMPTS} ${inScope(scope)}
        ${upToId === undefined ? sql`` : sql`and id <= ${upToId}`}`,
    z.object({ n: column.number }),
  );
  return row?.n ?? 0;
}

/** The id of the scope's newest waiting request, or null when none waits. */
export async function lastSpooledIdOf(db: Executor, scope: SpoolScope): Promise<number | null> {
  const [row] = await queryRows(
    db,
    sql`select max(id) as id from ingest_spool
      where attempts < ${MAX_SPOOL_ATTEMPTS} ${inScope(scope)}`,
    z.object({ id: column.numberOrNull }),
  );
  return row?.id ?? null;
}

export async function readSpoolBacklog(db: Executor): Promise<SpoolCount> {
  // Per project (each within its shard on a distributed Postgres), summed here; the snapshot
  // comes along on every row, and on the one row of nulls an empty spool gives.
  const rows = await queryRows(
    db,
    sql`
      with counted as (
        select project_id, count(*) as requests, coalesce(sum(bytes), 0) as bytes,
          coalesce(extract(epoch from (now() - min(received_at))) * 1000, 0) as oldest_ms,
          count(*) filter (where attempts >= ${MAX_SPOOL_ATTEMPTS}) as stuck
        from ingest_spool
        group by project_id
      )
      select pg_current_snapshot()::text as snapshot, counted.*
      from (select 1) as one left join counted on true
    `,
    z.object({
      snapshot: column.text,
      project_id: column.text.nullable(),
      requests: column.numberOrNull,
      bytes: column.numberOrNull,
      oldest_ms: column.numberOrNull,
      stuck: column.numberOrNull,
    }),
  );
  const byProject = new Map<string, SpooledShare>();
  const snapshot = parseSnapshot(rows[0]!.snapshot);
  const backlog: SpoolCount = {
    requests: 0,
    bytes: 0,
    oldestAgeMs: 0,
    stuck: 0,
    byProject,
    snapshot,
  };
  for (const row of rows) {
    if (row.project_id === null) continue;
    const requests = row.requests ?? 0;
    const bytes = row.bytes ?? 0;
    byProject.set(row.project_id, { requests, bytes });
    backlog.requests += requests;
    backlog.bytes += bytes;
    backlog.stuck += row.stuck ?? 0;
    backlog.oldestAgeMs = Math.max(backlog.oldestAgeMs, Math.round(row.oldest_ms ?? 0));
  }
  return backlog;
}

// postgres.js sends a Buffer as bytea; PGlite takes any Uint8Array.
function bytesParam(body: Uint8Array): Uint8Array {
  return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

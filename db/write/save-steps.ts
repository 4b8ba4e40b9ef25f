// A derived run's steps written over what the previous derivation left: each row carries a digest
// of itself, and only the steps whose digest changed (or that are new, or gone) are deleted and
// inserted. A long run streaming one step at a time is derived again at every batch: rewriting
// its thousands of unchanged steps each time was most of the write, and of the table's churn.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../sql';
import { asPgArray, column, queryRows } from '../sql';
import type { steps } from '../schema';
import { StepDigestMemo } from './step-digests';
import type { DigestedStep } from './step-digests';
import { deleteByKey } from './time-partitions';

const digests = new StepDigestMemo();

/** A step row as derivation computes it: the steps table's insert row. */
export type StepRow = Required<Omit<typeof steps.$inferInsert, 'projectId' | 'fingerprint'>>;

// A run of many thousand steps would make one parameter of hundreds of megabytes.
const STEP_CHUNK = 5000;

/**
 * Replaces the steps of `runIds` with `rows` (a run without rows is left with none). With
 * `droppedBeforeMs` (retention about to drop the older weekly partitions) every step of the
 * runs is rewritten, as the partitions' key delete requires.
 */
export async function replaceSteps(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
  rows: readonly StepRow[],
  droppedBeforeMs?: number,
): Promise<void> {
  if (runIds.length === 0) return;
  const written: DigestedStep[] = [];
  const byRun = new Map<string, StepRow[]>();
  for (const row of rows) {
    const of = byRun.get(row.runId);
    if (of) of.push(row);
    else byRun.set(row.runId, [row]);
  }
  for (const [runId, ofRun] of byRun) {
    for (const step of digests.digest(projectId, runId, ofRun)) written.push(step);
  }
  let insert: readonly DigestedStep[] = written;
  if (droppedBeforeMs !== undefined) {
    await deleteByKey(
      tx,
      'steps',
      sql`project_id = ${projectId}::uuid and run_id = any(${asPgArray(runIds)}::text[])`,
      droppedBeforeMs,
    );
  } else {
    const stored = await storedFingerprints(tx, projectId, runIds);
    insert = written.filter((w) => {
      const at = stored.get(w.row.runId)?.get(w.row.ordinal);
      if (at?.fingerprint !== w.fingerprint) return true;
      at.kept = true;
      return false;
    });
    // Every stored step not kept as it is: changed, or gone (the run got shorter, lost spans).
    const gone: StoredStep[] = [];
    for (const ofRun of stored.values()) {
      for (const step of ofRun.values()) if (!step.kept) gone.push(step);
    }
    await deleteSteps(tx, projectId, gone);
  }
  // One serialisation of each row serves its digest and the insert's parameter.
  const inserts = insert.map(
    (w) => `${(w.json ?? JSON.stringify(w.row)).slice(0, -1)},"fingerprint":"${w.fingerprint}"}`,
  );
  for (let k = 0; k < inserts.length; k += STEP_CHUNK) {
    await insertSteps(tx, projectId, inserts.slice(k, k + STEP_CHUNK));
  }
}

interface StoredStep {
  runId: string;
  ordinal: number;
  /** Null for a row from before digests, or a position stored twice: never kept as it is. */
  fingerprint: string | null;
  /** Derivation gave the same row: it stays. */
  kept: boolean;
}

/** By run, then ordinal. */
async function storedFingerprints(
  tx: Executor,
  projectId: string,
  runIds: readonly string[],
): Promise<Map<string, Map<number, StoredStep>>> {
  // One row a run, its steps as `ordinal:fingerprint` joined: a long run's thousands of rows
  // read as one value (digests are base64url, so neither separator occurs in them).
  const joined = sql`string_agg(ordinal::text || ':' || coalesce(fingerprint, ''), ',') as steps`;
  // One run (a long run derived alone, for a read or the guard) needs no grouping, which the
  // planner may sort its thousands of rows for.
  const [only] = runIds;
  const rows = await queryRows(
    tx,
    runIds.length === 1 && only !== undefined
      ? sql`select run_id, steps from (select ${only}::text as run_id, ${joined}
          from steps where project_id = ${projectId}::uuid and run_id = ${only}) s
          where steps is not null`
      : sql`select run_id, ${joined} from steps
          where project_id = ${projectId}::uuid and run_id = any(${asPgArray(runIds)}::text[])
          group by run_id`,
    z.object({ run_id: column.text, steps: column.text }),
  );
  const stored = new Map<string, Map<number, StoredStep>>();
  for (const row of rows) {
    const ofRun = new Map<number, StoredStep>();
    stored.set(row.run_id, ofRun);
    for (const entry of row.steps.split(',')) {
      const colon = entry.indexOf(':');
      const ordinal = Number(entry.slice(0, colon));
      const twice = ofRun.has(ordinal);
      ofRun.set(ordinal, {
        runId: row.run_id,
        ordinal,
        fingerprint: twice || colon === entry.length - 1 ? null : entry.slice(colon + 1),
        kept: false,
      });
    }
  }
  return stored;
}

async function deleteSteps(
  tx: Executor,
  projectId: string,
  gone: readonly StoredStep[],
): Promise<void> {
  if (gone.length === 0) return;
  await tx.execute(sql`
    delete from steps s
    using unnest(${asPgArray(gone.map((g) => g.runId))}::text[],
      ${asPgArray(gone.map((g) => String(g.ordinal)))}::int[]) as d(run_id, ordinal)
    where s.project_id = ${projectId}::uuid and s.run_id = d.run_id and s.ordinal = d.ordinal`);
}

async function insertSteps(
  tx: Executor,
  projectId: string,
  rows: readonly string[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into steps (project_id, run_id, ordinal, index, trace_id, span_id, name, start_ms,
      duration_ms, action, action_args, action_hash, state_hash, result, result_hash, progress,
      verdict, verdict_source, verdict_fields, error_class, cost_usd, input_tokens, output_tokens,
      context_tokens, signals, repeat_of, revisit_of, revisit_cycle, stall_since, fingerprint)
    select ${projectId}::uuid, x."runId", x.ordinal, x.index, x."traceId", x."spanId", x.name,
      x."startMs", x."durationMs", x.action, x."actionArgs", x."actionHash", x."stateHash", x.result,
      x."resultHash", x.progress, x.verdict, x."verdictSource", x."verdictFields", x."errorClass",
      x."costUsd", x."inputTokens", x."outputTokens", x."contextTokens",
      array(select jsonb_array_elements_text(x.signals)), x."repeatOf", x."revisitOf",
      x."revisitCycle", x."stallSince", x.fingerprint
    from jsonb_to_recordset(${`[${rows.join(',')}]`}::jsonb) as x("runId" text, ordinal int,
      index int, "traceId" text, "spanId" text, name text, "startMs" float8, "durationMs" float8,
      action text, "actionArgs" text, "actionHash" text, "stateHash" text, result text,
      "resultHash" text, progress float8, verdict text, "verdictSource" text,
      "verdictFields" jsonb, "errorClass" text, "costUsd" float8, "inputTokens" bigint,
      "outputTokens" bigint, "contextTokens" bigint, signals jsonb, "repeatOf" int,
      "revisitOf" int, "revisitCycle" int, "stallSince" int, fingerprint text)
  `);
}

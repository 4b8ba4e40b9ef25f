// The alert outbox: events fired (in the transaction that judged them), claimed by the sender
// under a lease, and every delivery attempt recorded.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { asJsonParam, column, queryRows } from '../sql';
import type { Executor } from '../sql';

export interface FiredEvent {
  ruleId: string;
  /** `run:<id>`, `window:<start>` or `test:<uuid>`: one event per rule and key, ever. */
  dedupeKey: string;
  runId: string | null;
  summary: string;
  detail: Record<string, unknown> | null;
}

/** Writes fired events; one already fired for its rule and key is left as it is. */
export async function fireEvents(
  tx: Executor,
  projectId: string,
  events: readonly FiredEvent[],
): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await queryRows(
    tx,
    sql`insert into alert_events (project_id, rule_id, dedupe_key, run_id, summary, detail)
      select ${projectId}::uuid, x."ruleId"::uuid, x."dedupeKey", x."runId", x.summary, x.detail
      from jsonb_to_recordset(${asJsonParam(events)}::jsonb)
        as x("ruleId" text, "dedupeKey" text, "runId" text, summary text, detail jsonb)
      on conflict (project_id, rule_id, dedupe_key) do nothing
      returning id`,
    z.object({ id: column.text }),
  );
  return rows.map((r) => r.id);
}

const claimedRow = z.object({
  project_id: column.text,
  project_name: column.text,
  id: column.text,
  rule_id: column.text,
  rule_name: column.text,
  run_id: column.textOrNull,
  fired_at: column.isoTime,
  summary: column.text,
  detail: column.json,
  attempts: column.number,
  webhook_url: column.text,
  webhook_format: column.text,
  secret_sealed: column.textOrNull,
});
export type ClaimedEvent = z.output<typeof claimedRow>;

/**
 * Takes up to `limit` due events for one attempt each: their next attempt is pushed `leaseMs`
 * ahead, so no other sender takes them while this one tries, and one that dies trying leaves
 * them to be tried again after the lease. `attempts` comes back counting this attempt.
 */
export async function claimDueEvents(
  db: Executor,
  limit: number,
  leaseMs: number,
): Promise<ClaimedEvent[]> {
  return queryRows(
    db,
    sql`with due as (
          select project_id, id from alert_events
          where status = 'pending' and next_attempt_at <= now()
          order by next_attempt_at limit ${limit} for update skip locked),
        claimed as (
          update alert_events e set attempts = e.attempts + 1,
            next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
          from due where e.project_id = due.project_id and e.id = due.id
          returning e.*)
        select c.project_id, p.name as project_name, c.id, c.rule_id, r.name as rule_name,
          c.run_id, c.fired_at, c.summary, c.detail, c.attempts, r.webhook_url,
          r.webhook_format, r.secret_sealed
        from claimed c
          join alert_rules r on r.project_id = c.project_id and r.id = c.rule_id
          join projects p on p.id = c.project_id`,
    claimedRow,
  );
}

export interface AttemptOutcome {
  httpStatus: number | null;
  error: string | null;
  /** delivered; retry at the given time; or failed for good. */
  next: { status: 'delivered' } | { status: 'retry'; atMs: number } | { status: 'failed' };
}

/** Logs one attempt and moves the event on: delivered, due again later, or failed. */
export async function recordAttempt(
  db: Executor,
  event: { projectId: string; id: string; attempt: number },
  outcome: AttemptOutcome,
): Promise<void> {
  const { next } = outcome;
  const nextAt = next.status === 'retry' ? new Date(next.atMs).toISOString() : null;
  const status = next.status === 'retry' ? 'pending' : next.status;
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into alert_deliveries (project_id, event_id, attempt, http_status, error)
      values (${event.projectId}::uuid, ${event.id}::uuid, ${event.attempt}, ${outcome.httpStatus},
        ${outcome.error})
      on conflict do nothing`);
    await tx.execute(sql`update alert_events set status = ${status}, last_error = ${outcome.error},
        next_attempt_at = coalesce(${nextAt}::timestamptz, next_attempt_at)
      where project_id = ${event.projectId}::uuid and id = ${event.id}::uuid`);
  });
}

/**
 * Gives a claimed event back untried, due again in `afterMs`: the attempt is not counted, so
 * another sender (one that can do what this one cannot) takes it as if this one never had.
 */
export async function releaseClaim(
  db: Executor,
  event: { projectId: string; id: string; attempt: number },
  afterMs: number,
): Promise<void> {
  await db.execute(sql`update alert_events set attempts = attempts - 1,
      next_attempt_at = now() + ${afterMs} * interval '1 millisecond'
    where project_id = ${event.projectId}::uuid and id = ${event.id}::uuid
      and status = 'pending' and attempts = ${event.attempt}`);
}

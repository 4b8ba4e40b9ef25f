import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TimeWindow } from '../../lib/filters';
import { column, queryRows } from '../sql';
import type { Executor } from '../sql';

export interface AlertDelivery {
  at: string;
  attempt: number;
  httpStatus: number | null;
  error: string | null;
}

export interface AlertEvent {
  id: string;
  ruleId: string;
  firedAt: string;
  runId: string | null;
  summary: string;
  /** pending (being delivered or waiting for a retry), delivered or failed. */
  status: string;
  deliveries: AlertDelivery[];
}

const row = z.object({
  id: column.text,
  rule_id: column.text,
  fired_at: column.isoTime,
  run_id: column.textOrNull,
  summary: column.text,
  status: column.text,
  deliveries: column.json.pipe(
    z.array(
      z.object({
        at: column.isoTime,
        attempt: column.number,
        httpStatus: column.numberOrNull,
        error: column.textOrNull,
      }),
    ),
  ),
});

export const EVENT_LIST_LIMIT = 500;

/** The project's events fired in the window, newest first, each with every delivery attempt. */
export async function listAlertEvents(
  db: Executor,
  { projectId, window, ruleId }: { projectId: string; window: TimeWindow; ruleId?: string },
): Promise<AlertEvent[]> {
  const rule = ruleId === undefined ? sql`` : sql`and e.rule_id = ${ruleId}::uuid`;
  const rows = await queryRows(
    db,
    sql`select e.id, e.rule_id, e.fired_at, e.run_id, e.summary, e.status,
        coalesce((select jsonb_agg(jsonb_build_object('at', d.at, 'attempt', d.attempt,
            'httpStatus', d.http_status, 'error', d.error) order by d.attempt)
          from alert_deliveries d where d.project_id = e.project_id and d.event_id = e.id),
          '[]'::jsonb) as deliveries
      from alert_events e
      where e.project_id = ${projectId}::uuid ${rule}
        and e.fired_at >= ${window.from.toISOString()}::timestamptz
        and e.fired_at <= ${window.to.toISOString()}::timestamptz
      order by e.fired_at desc, e.id limit ${EVENT_LIST_LIMIT}`,
    row,
  );
  return rows.map((r) => ({
    id: r.id,
    ruleId: r.rule_id,
    firedAt: r.fired_at,
    runId: r.run_id,
    summary: r.summary,
    status: r.status,
    deliveries: r.deliveries,
  }));
}

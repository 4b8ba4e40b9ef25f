// What a standby says of its replay, and how far the primary's WAL is past it (server/read-replica.ts).
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, queryRows } from '../sql';
import type { Executor } from '../sql';

export interface StandbyReplay {
  inRecovery: boolean;
  /** The last WAL position replayed (an LSN), null on a server that is not replaying. */
  replayed: string | null;
  /** Seconds since the last transaction it replayed committed on the primary. */
  sinceReplaySeconds: number | null;
  /** The cluster's system identifier: a standby shares its primary's. */
  system: string;
}

export async function standbyReplay(db: Executor): Promise<StandbyReplay | null> {
  const [row] = await queryRows(
    db,
    sql`select pg_is_in_recovery() as in_recovery,
          pg_last_wal_replay_lsn()::text as replayed,
          extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as since_replay,
          (select system_identifier::text from pg_control_system()) as system`,
    z.object({
      in_recovery: column.boolean,
      replayed: column.textOrNull,
      since_replay: column.numberOrNull,
      system: column.text,
    }),
  );
  return row
    ? {
        inRecovery: row.in_recovery,
        replayed: row.replayed,
        sinceReplaySeconds: row.since_replay,
        system: row.system,
      }
    : null;
}

/** The primary's system identifier, and its WAL's bytes past `replayed` (null when unknown). */
export async function primaryPast(
  db: Executor,
  replayed: string | null,
): Promise<{ system: string; behindBytes: number | null }> {
  const [row] = await queryRows(
    db,
    sql`select (select system_identifier::text from pg_control_system()) as system,
          case when ${replayed}::text is null then null
               else pg_wal_lsn_diff(pg_current_wal_lsn(), ${replayed}::text::pg_lsn)::float8
          end as behind_bytes`,
    z.object({ system: column.text, behind_bytes: column.numberOrNull }),
  );
  return { system: row?.system ?? '', behindBytes: row?.behind_bytes ?? null };
}

// The dashboard's reads on a standby (DATABASE_READ_URL), so they take nothing from the primary
// that ingest writes to. Every few seconds the standby is asked how far it is behind the primary;
// reads go to it while it answers and is at most MAX_LAG_SECONDS behind, to the primary otherwise,
// and the dashboard shows which and how far behind (`/api/health`'s `reads`).
import type { Database, DatabaseHandle } from '../db/client';
import { describeError } from '../db/errors';
import { primaryPast, standbyReplay } from '../db/read/replication';
import type { StandbyReplay } from '../db/read/replication';
import type { ReadSource } from '../lib/api-types';

const CHECK_MS = 5_000;
export const MAX_LAG_SECONDS = 60;

export class ReadReplica {
  private source: ReadSource = {
    from: 'primary',
    lagSeconds: null,
    reason: 'the standby has not been checked yet',
    checkedAt: null,
  };
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<ReadSource> | null = null;

  constructor(
    readonly handle: DatabaseHandle,
    private readonly primary: () => Database | null,
    private readonly now: () => number = () => Date.now(),
  ) {}

  start(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), CHECK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.checking?.catch(() => undefined);
    await this.handle.close();
  }

  /** The database a dashboard read should use now: the standby, or null for the primary. */
  database(): Database | null {
    return this.source.from === 'standby' ? this.handle.db : null;
  }

  describe(): ReadSource {
    return this.source;
  }

  /** Asks the standby (and the primary) again; resolves with the new source. */
  check(): Promise<ReadSource> {
    this.checking ??= this.measure()
      .then((source) => (this.source = source))
      .finally(() => (this.checking = null));
    return this.checking;
  }

  private async measure(): Promise<ReadSource> {
    const checkedAt = new Date(this.now()).toISOString();
    const toPrimary = (reason: string, lagSeconds: number | null = null): ReadSource => ({
      from: 'primary',
      lagSeconds,
      reason,
      checkedAt,
    });
    const primary = this.primary();
    if (!primary) return toPrimary('the primary is not ready');
    let standby: StandbyReplay | null;
    try {
      standby = await standbyReplay(this.handle.db);
    } catch (error) {
      return toPrimary(`the standby does not answer (${describeError(error)})`);
    }
    if (!standby) return toPrimary('the standby does not answer');
    let past: { system: string; behindBytes: number | null };
    try {
      past = await primaryPast(primary, standby.replayed);
    } catch (error) {
      return toPrimary(`the primary does not answer (${describeError(error)})`);
    }
    if (past.system !== standby.system) {
      return toPrimary('DATABASE_READ_URL is not a copy of DATABASE_URL’s database');
    }
    if (!standby.inRecovery)
      return toPrimary('DATABASE_READ_URL is not a standby (it takes writes)');
    // Caught up: nothing to replay, however long ago the last write was. Behind: how long since
    // the last transaction it replayed committed on the primary.
    const lagSeconds =
      past.behindBytes !== null && past.behindBytes <= 0
        ? 0
        : standby.sinceReplaySeconds === null
          ? null
          : Math.max(0, standby.sinceReplaySeconds);
    if (lagSeconds === null) return toPrimary('the standby has replayed nothing yet');
    if (lagSeconds > MAX_LAG_SECONDS) {
      return toPrimary(`the standby is ${Math.round(lagSeconds)} s behind`, lagSeconds);
    }
    return { from: 'standby', lagSeconds, reason: null, checkedAt };
  }
}

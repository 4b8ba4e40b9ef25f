// PGlite has no autovacuum: the server's pass analyses and vacuums what autovacuum would, and
// only that.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { createTestDatabase, rawRows } from '../test-database';
import { dueTables, vacuumPassRunsNow, vacuumWhereDue } from './pglite-vacuum';
import { saveRuns } from './save-runs';
import { testRunRow } from './test-run-row';

const stats = { live: 10_000, dead: 0, inserted: 0, modified: 0 };

describe('which tables are due', () => {
  it('follows autovacuum’s default thresholds', () => {
    expect(
      dueTables([
        { name: 'quiet', ...stats, dead: 2_050, inserted: 3_000, modified: 1_050 },
        { name: 'dead', ...stats, dead: 2_051 },
        { name: 'inserted', ...stats, inserted: 3_001 },
        { name: 'modified', ...stats, modified: 1_051 },
        { name: 'new', live: 0, dead: 0, inserted: 40, modified: 51 },
      ]),
    ).toEqual({ vacuum: ['dead', 'inserted'], analyze: ['modified', 'new'] });
  });
});

describe('when a pass runs', () => {
  it('waits while the spool holds a backlog, for 15 minutes at most', () => {
    expect(vacuumPassRunsNow(50, 60_000)).toBe(true);
    expect(vacuumPassRunsNow(51, 60_000)).toBe(false);
    expect(vacuumPassRunsNow(5_000, 15 * 60_000 - 1)).toBe(false);
    expect(vacuumPassRunsNow(5_000, 15 * 60_000)).toBe(true);
  });
});

describe('the vacuum pass on PGlite', () => {
  let handle: DatabaseHandle;
  // A backend reports its counters when idle at most once a second; this test asks at once.
  const counters = async () => {
    await handle.db.execute(sql`select pg_stat_force_next_flush()`);
    return (
      await rawRows(
        handle.db,
        sql`select n_dead_tup::int as dead, n_mod_since_analyze::int as modified,
              last_vacuum is not null as vacuumed, last_analyze is not null as analysed,
              (select count(*)::int from pg_stats where tablename = 'runs') as columns
            from pg_stat_user_tables where relname = 'runs'`,
      )
    )[0];
  };
  beforeAll(async () => {
    handle = await createTestDatabase('pglite');
    const projectId = await ensureProject(handle.db, 'vacuum');
    const rows = Array.from({ length: 300 }, (_, k) => testRunRow(`run-${k}`, 1e12 + k * 1000));
    await handle.db.transaction((tx) => saveRuns(tx, projectId, rows, [], []));
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('analyses a table that was written to and was never analysed', async () => {
    expect(await counters()).toMatchObject({ modified: 300, analysed: false, columns: 0 });
    const work = await vacuumWhereDue(handle.db);
    expect(work.analyze).toContain('runs');
    expect(work.vacuum).not.toContain('runs');
    expect(await counters()).toMatchObject({ modified: 0, analysed: true, vacuumed: false });
    expect((await counters())?.columns).toBeGreaterThan(10);
  });

  it('vacuums the dead rows that updates leave, then has nothing left to do', async () => {
    await handle.db.execute(sql`update runs set cost_usd = cost_usd + 1`);
    expect((await counters())?.dead).toBe(300);
    expect((await vacuumWhereDue(handle.db)).vacuum).toContain('runs');
    expect(await counters()).toMatchObject({ dead: 0, modified: 0, vacuumed: true });
    const again = await vacuumWhereDue(handle.db);
    expect([...again.vacuum, ...again.analyze]).not.toContain('runs');
  });
});

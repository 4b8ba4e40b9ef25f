// A search's plan comes from the table's own statistics: its common words are checked on the rows,
// a rare word's matches are gathered and sorted; the list finds the same runs, in the same order
// and pages, whichever way.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { TEST_DATABASE_KINDS, createTestDatabase } from '../test-database';
import { saveRuns } from '../write/save-runs';
import { testRunRow } from '../write/test-run-row';
import { listRuns } from './list-runs';
import type { RunListQuery } from './list-runs';
import { planSearch } from './search-plan';

const BASE = Date.parse('2026-11-20T00:00:00Z');
const LATER = 10 * 60_000; // past the sample's time to live

describe.each(TEST_DATABASE_KINDS)('the search plan on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'common-words');
    const rows = Array.from({ length: 300 }, (_, k) =>
      testRunRow(`run-${k}`, BASE + k * 1000, {
        searchText: `coder task ${k}\nread_file${k % 60 === 0 ? '\nquota exceeded for Needle' : ''}${k % 6 === 3 ? '\nsixth' : ''}`,
        // Ties in every sort, so pages turn on the id as well.
        costUsd: (k % 7) / 4,
        wastedUsd: (k % 5) / 8,
        stepCount: 1 + (k % 4),
        durationMs: k % 9 === 0 ? null : (k % 3) * 1000,
      }),
    );
    await handle.db.transaction((tx) => saveRuns(tx, projectId, rows, [], []));
  });
  afterAll(async () => {
    await handle?.close();
  });

  const plan = (q: string, at: number) => planSearch(handle.db, q, 10, at);

  it('leaves the plan to the planner before the table is analysed', async () => {
    expect(await plan('task needle', BASE)).toEqual({ checkedWords: [], sortMatches: false });
  });

  it('checks on the rows the words most runs have, once one word is rare', async () => {
    await handle.db.execute(sql`analyze runs`);
    const at = BASE + LATER;
    const checked = async (q: string) => (await plan(q, at)).checkedWords;
    expect(await checked('task needle')).toEqual(['task']);
    expect(await checked('TASK quota READ_FILE')).toEqual(['TASK', 'READ_FILE']);
    // One word, or every word common: the index serves them all.
    expect(await checked('task')).toEqual([]);
    expect(await checked('task read_file')).toEqual([]);
    expect(await checked('needle quota')).toEqual([]);
  });

  it('gathers and sorts the matches of a rare word, walks the order of a common one', async () => {
    const at = BASE + LATER;
    const sorts = async (q: string) => (await plan(q, at)).sortMatches;
    // 300 rows, pages of 10: a share s is gathered when 300 s < 11 / s, under about 0.19.
    expect(await sorts('needle')).toBe(true); // 5 runs
    expect(await sorts('sixth')).toBe(true); // 50 runs
    expect(await sorts('nothing-like-it')).toBe(true); // none
    expect(await sorts('task needle')).toBe(true); // the rarest word decides
    expect(await sorts('task')).toBe(false); // every run
    expect(await sorts('read_file coder')).toBe(false);
    // A page of 5: walking finds it in about 36 rows, where gathering reads 50.
    expect((await planSearch(handle.db, 'sixth', 5, at)).sortMatches).toBe(false);
  });

  it('pages through gathered matches in every sort’s order, ties by id', async () => {
    const window = { from: new Date(BASE), to: new Date(BASE + 300_000) };
    const all = await listRuns(handle.db, {
      projectId,
      window,
      sort: 'startedAt',
      order: 'asc',
      limit: 300,
    });
    const sixth = all.runs.filter((r) => Number(r.id.slice(4)) % 6 === 3);
    expect(sixth).toHaveLength(50);
    expect((await plan('sixth', BASE + LATER)).sortMatches).toBe(true);
    const key = {
      startedAt: (r: (typeof sixth)[number]) => Date.parse(r.startedAt),
      costUsd: (r: (typeof sixth)[number]) => r.costUsd,
      wastedUsd: (r: (typeof sixth)[number]) => r.wastedUsd,
      stepCount: (r: (typeof sixth)[number]) => r.stepCount,
      durationMs: (r: (typeof sixth)[number]) => r.durationMs ?? -1,
    } as const;
    for (const sort of Object.keys(key) as (keyof typeof key)[]) {
      for (const order of ['asc', 'desc'] as const) {
        const sign = order === 'asc' ? 1 : -1;
        const expected = [...sixth]
          .sort((a, b) => sign * (key[sort](a) - key[sort](b)) || sign * (a.id < b.id ? -1 : 1))
          .map((r) => r.id);
        const query: RunListQuery = { projectId, window, q: 'sixth', sort, order, limit: 10 };
        const seen: string[] = [];
        for (let cursor: string | undefined, page = 0; page < 10; page++) {
          const result = await listRuns(handle.db, { ...query, cursor });
          seen.push(...result.runs.map((r) => r.id));
          if (result.nextCursor === null) break;
          cursor = result.nextCursor;
        }
        expect(seen, `${sort} ${order}`).toEqual(expected);
      }
    }
  });

  it('finds the same runs with the common word checked on the rows', async () => {
    const window = { from: new Date(BASE), to: new Date(BASE + 300_000) };
    const ids = async (q: string) =>
      (
        await listRuns(handle.db, {
          projectId,
          window,
          q,
          sort: 'startedAt',
          order: 'asc',
          limit: 50,
        })
      ).runs.map((r) => r.id);
    expect(await ids('task needle')).toEqual(['run-0', 'run-60', 'run-120', 'run-180', 'run-240']);
    expect(await ids('needle task 12')).toEqual(['run-120']);
    expect(await ids('task needle nothing-like-it')).toEqual([]);
  });
});

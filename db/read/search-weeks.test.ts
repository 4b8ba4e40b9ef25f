// A rare word's runs found through the window's weeks answer what the trigram index answers: the
// same runs for every kind of word, at week edges, after a run's start moves to another week.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { runs } from '../schema';
import { TEST_DATABASE_KINDS, createTestDatabase, rawRows } from '../test-database';
import { saveRuns } from '../write/save-runs';
import { testRunRow } from '../write/test-run-row';
import { listRuns } from './list-runs';
import { runScope } from './run-filters';
import { MAX_SEARCH_WEEKS, SEARCH_WEEK_MS, hasSearchKey, searchWeeks } from './search-weeks';

const WEEK = SEARCH_WEEK_MS;
/** The first instant of a search week (Thursday 00:00 UTC). */
const EDGE = 2970 * WEEK;
const DAY = 86_400_000;

describe('the weeks a window reads', () => {
  const window = (from: number, to: number) => ({ from: new Date(from), to: new Date(to) });

  it('names every week the window touches, and not the week its end opens', () => {
    expect(searchWeeks(window(EDGE - 3 * DAY, EDGE + 4 * DAY))).toEqual([2969, 2970]);
    expect(searchWeeks(window(EDGE, EDGE + WEEK))).toEqual([2970]);
    expect(searchWeeks(window(EDGE - 1, EDGE))).toEqual([2969]);
    expect(searchWeeks(window(EDGE - 30 * DAY, EDGE + 1))).toEqual([
      2965, 2966, 2967, 2968, 2969, 2970,
    ]);
    expect(searchWeeks(window(EDGE, EDGE))).toEqual([]);
    expect(searchWeeks(window(EDGE + DAY, EDGE))).toEqual([]);
  });

  it('gives up past the longest window worth a lookup a week', () => {
    expect(searchWeeks(window(EDGE, EDGE + MAX_SEARCH_WEEKS * WEEK))).toHaveLength(
      MAX_SEARCH_WEEKS,
    );
    expect(searchWeeks(window(EDGE, EDGE + MAX_SEARCH_WEEKS * WEEK + 1))).toBeNull();
    expect(searchWeeks(window(0, EDGE))).toBeNull();
  });

  it('looks up only words with three ASCII letters or digits in a row', () => {
    expect(['613', 'Task', 'x-abc', 'read_file', 'café'].map(hasSearchKey)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['ab', '%_', 'a-b-c', 'été', '日本語', "''\\"].map(hasSearchKey)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

// Runs on both sides of a week's edge, with text of every kind a search meets.
const TEXTS = [
  'coder task 613 read_file',
  'coder task 6130 edit_file',
  'ops TASK-613 quota',
  'researcher x613y stalled',
  'goal: 100% done_ok',
  'goal: 100 percent doneXok',
  "it's a \\path\\to\\file",
  'café au lait',
  '日本語のゴール',
  'ab cd',
];

describe.each(TEST_DATABASE_KINDS)('a search by week on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  let otherProject: string;
  /** Each text at three starts: the day before the edge, the edge itself, nine days after. */
  const starts = [EDGE - DAY, EDGE, EDGE + 9 * DAY];
  const rows = TEXTS.flatMap((text, k) =>
    starts.map((at, s) => testRunRow(`run-${k}-${s}`, at + k * 1000, { searchText: text })),
  );

  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'weeks');
    otherProject = await ensureProject(handle.db, 'weeks-other');
    await handle.db.transaction((tx) => saveRuns(tx, projectId, rows, [], []));
    await handle.db.transaction((tx) => saveRuns(tx, otherProject, rows, [], []));
  });
  afterAll(async () => {
    await handle?.close();
  });

  const ids = async (q: string, from: number, to: number, searchByWeek: boolean) => {
    const found = await handle.db
      .select({ id: runs.id })
      .from(runs)
      .where(
        runScope({
          projectId,
          window: { from: new Date(from), to: new Date(to) },
          q,
          searchByWeek,
        }),
      )
      .orderBy(runs.id);
    return found.map((r) => r.id);
  };
  /** What the search means: every word in the text, case aside, as the characters typed. */
  const expected = (q: string, from: number, to: number) =>
    rows
      .filter((r) => r.startedAtMs >= from && r.startedAtMs < to)
      .filter((r) =>
        q
          .split(/\s+/)
          .filter(Boolean)
          .every((w) => r.searchText.toLowerCase().includes(w.toLowerCase())),
      )
      .map((r) => r.id)
      .sort();

  const QUERIES = [
    '613',
    'task 613',
    'TASK-613',
    'x613',
    '6130',
    'read_file',
    'read%file',
    '100%',
    'done_ok',
    "it's",
    '\\path\\to',
    'café',
    '日本語',
    'ab',
    'nothing-like-it',
  ];

  it('finds the runs every word is in, by week as through the trigram index', async () => {
    const windows: [number, number][] = [
      [EDGE - 2 * DAY, EDGE + 2 * DAY], // both weeks
      [EDGE, EDGE + WEEK], // the edge's week only: the run a day before it is out
      [EDGE - 2 * DAY, EDGE], // ends where the week begins: the edge's run is out
      [EDGE - 20 * DAY, EDGE + 20 * DAY],
      [EDGE - 300 * DAY, EDGE + 20 * DAY], // too many weeks: through the trigram index
    ];
    let matched = 0;
    for (const [from, to] of windows) {
      for (const q of QUERIES) {
        const want = expected(q, from, to);
        matched += want.length;
        expect(await ids(q, from, to, true), `${q} by week`).toEqual(want);
        expect(await ids(q, from, to, false), `${q} by trigram`).toEqual(want);
      }
    }
    // The queries do find runs (and miss others): equality above is not of empty lists.
    expect(matched).toBeGreaterThan(50);
  });

  it('finds a run in the week its start moved to, not in the one it left', async () => {
    const moved = testRunRow('run-moved', EDGE + 3 * DAY, { searchText: 'relocated zq7 goal' });
    await handle.db.transaction((tx) => saveRuns(tx, projectId, [moved], [], []));
    const week = (from: number) => ids('zq7', from, from + WEEK, true);
    expect(await week(EDGE)).toEqual(['run-moved']);
    const earlier = { ...moved, startedAtMs: EDGE - 3 * DAY, lastSpanEndMs: EDGE - 3 * DAY };
    await handle.db.transaction((tx) => saveRuns(tx, projectId, [earlier], [], []));
    expect(await week(EDGE)).toEqual([]);
    expect(await week(EDGE - WEEK)).toEqual(['run-moved']);
  });

  it('reads a rare word through the week index, and the list gives its runs newest first', async () => {
    // Enough runs in the window that walking it costs more than looking the word up.
    const filler = Array.from({ length: 3000 }, (_, k) =>
      testRunRow(`filler-${k}`, EDGE - DAY + k * 50, { searchText: `coder task ${k % 600}` }),
    );
    await handle.db.transaction((tx) => saveRuns(tx, projectId, filler, [], []));
    await handle.db.execute(sql`analyze runs`);
    const window = { from: new Date(EDGE - 2 * DAY), to: new Date(EDGE + 2 * DAY) };
    const plan = await rawRows(
      handle.db,
      sql`explain select ${runs.id} from ${runs}
          where ${runScope({ projectId, window, q: 'task 613', checkedWords: ['task'], searchByWeek: true })}`,
    );
    const text = plan.map((row) => Object.values(row)[0]).join('\n');
    expect(text).toContain('runs_search_weeks_idx');
    expect(text).not.toContain('runs_search_idx');
    const page = await listRuns(handle.db, {
      projectId,
      window,
      q: 'task 613',
      sort: 'startedAt',
      order: 'desc',
      limit: 10,
    });
    // TASK-613 and task 6130 hold both words too; x613y has no `task`.
    expect(page.runs.map((r) => r.id)).toEqual([
      'run-2-1',
      'run-1-1',
      'run-0-1',
      'run-2-0',
      'run-1-0',
      'run-0-0',
    ]);
    // `61` has no trigram, so `task` finds the rows: fillers 61, 161 … 561 (five of each) and
    // six of the runs above, every one of them.
    const wide = await listRuns(handle.db, {
      projectId,
      window,
      q: 'task 61',
      sort: 'startedAt',
      order: 'desc',
      limit: 100,
    });
    expect(wide.runs).toHaveLength(6 * 5 + 6);
  });
});

// A search's common words are told apart by the table's own statistics, and the list finds the
// same runs whichever words go through the index.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { TEST_DATABASE_KINDS, createTestDatabase } from '../test-database';
import { saveRuns } from '../write/save-runs';
import { testRunRow } from '../write/test-run-row';
import { commonSearchWords } from './common-search-words';
import { listRuns } from './list-runs';

const BASE = Date.parse('2026-11-20T00:00:00Z');
const LATER = 10 * 60_000; // past the sample's time to live

describe.each(TEST_DATABASE_KINDS)('common search words on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'common-words');
    const rows = Array.from({ length: 300 }, (_, k) =>
      testRunRow(`run-${k}`, BASE + k * 1000, {
        searchText: `coder task ${k}\nread_file${k % 60 === 0 ? '\nquota exceeded for Needle' : ''}`,
      }),
    );
    await handle.db.transaction((tx) => saveRuns(tx, projectId, rows, [], []));
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('knows no word as common before the table is analysed', async () => {
    expect(await commonSearchWords(handle.db, 'task needle', BASE)).toEqual([]);
  });

  it('checks on the rows the words most runs have, once one word is rare', async () => {
    await handle.db.execute(sql`analyze runs`);
    const at = BASE + LATER;
    expect(await commonSearchWords(handle.db, 'task needle', at)).toEqual(['task']);
    expect(await commonSearchWords(handle.db, 'TASK quota READ_FILE', at)).toEqual([
      'TASK',
      'READ_FILE',
    ]);
    // One word, or every word common: the index serves them all.
    expect(await commonSearchWords(handle.db, 'task', at)).toEqual([]);
    expect(await commonSearchWords(handle.db, 'task read_file', at)).toEqual([]);
    expect(await commonSearchWords(handle.db, 'needle quota', at)).toEqual([]);
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

// Keyset pages in every sort of the runs list: walking them visits each run of the window once,
// in the sort's order (ties broken by id), whichever index the database walks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_SORTS } from '../../lib/filters';
import type { RunSort } from '../../lib/filters';
import type { RunSummary } from '../../lib/api-types';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { TEST_DATABASE_KINDS, createTestDatabase } from '../test-database';
import { saveRuns } from '../write/save-runs';
import type { RunRow } from '../write/save-runs';
import { testRunRow } from '../write/test-run-row';
import { listRuns } from './list-runs';

const BASE = Date.parse('2026-11-20T00:00:00Z');

function runRow(k: number): RunRow {
  const started = BASE + (k % 7) * 3_600_000 + k;
  // Few distinct values, so most pages end inside a tie; some runs still going (no duration).
  const duration = k % 5 === 0 ? null : (k % 4) * 1000;
  return testRunRow(`run-${String(k).padStart(3, '0')}`, started, {
    traceIds: [`t${k}`],
    exitCategory: duration === null ? 'running' : 'goal_satisfied',
    endedAtMs: duration === null ? null : started + duration,
    durationMs: duration,
    stepCount: k % 3,
    costUsd: [0, 0.1, 1 / 3][k % 3]!,
    wastedUsd: (k % 4) * 0.05,
  });
}

const value = (run: RunSummary, sort: RunSort): number =>
  sort === 'startedAt'
    ? Date.parse(run.startedAt)
    : sort === 'durationMs'
      ? (run.durationMs ?? -1)
      : run[sort];

describe.each(TEST_DATABASE_KINDS)('runs list sorts on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  const window = { from: new Date(BASE), to: new Date(BASE + 6 * 3_600_000) };
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'sorts');
    const rows = Array.from({ length: 60 }, (_, k) => runRow(k));
    await handle.db.transaction((tx) => saveRuns(tx, projectId, rows, [], []));
  });
  afterAll(async () => {
    await handle?.close();
  });

  it.each(
    RUN_SORTS.flatMap((sort) =>
      (['desc', 'asc'] as const).map((order): [RunSort, 'desc' | 'asc'] => [sort, order]),
    ),
  )('pages by %s %s visit the window once, in order', async (sort, order) => {
    const seen: RunSummary[] = [];
    let cursor: string | undefined;
    do {
      const page = await listRuns(handle.db, {
        projectId,
        window,
        sort,
        order,
        limit: 7,
        cursor,
      });
      seen.push(...page.runs);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const expected = Array.from({ length: 60 }, (_, k) => runRow(k))
      .filter((r) => r.startedAtMs < window.to.getTime())
      .map((r) => r.id);
    expect(seen.map((r) => r.id).sort()).toEqual(expected.sort());
    const sign = order === 'desc' ? -1 : 1;
    for (let k = 1; k < seen.length; k++) {
      const [a, b] = [seen[k - 1]!, seen[k]!];
      const byValue = Math.sign(value(b, sort) - value(a, sort));
      expect(
        byValue === sign || (byValue === 0 && Math.sign(b.id.localeCompare(a.id)) === sign),
      ).toBe(true);
    }
  });

  it('refuses a step-count cursor that is not an integer', async () => {
    const cursor = Buffer.from(JSON.stringify(['stepCount', 1.5, 'run-001'])).toString('base64url');
    await expect(
      listRuns(handle.db, {
        projectId,
        window,
        sort: 'stepCount',
        order: 'desc',
        limit: 5,
        cursor,
      }),
    ).rejects.toMatchObject({ code: 'bad_request' });
  });
});

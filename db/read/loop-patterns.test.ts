import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { createTestDatabase, rawRows, TEST_DATABASE_KINDS } from '../test-database';
import {
  buildPatternWindow,
  keepPatternWindows,
  PATTERN_WINDOW_DAYS,
} from '../write/pattern-windows';
import { replaceRunPatterns } from '../write/run-patterns';
import type { RunPatternRow } from '../write/run-patterns';
import { loopPatterns, rankFromWindow, WINDOW_ANCHOR_GAP_MS, wholeHours } from './loop-patterns';
import type { PatternScope, PatternTuning } from './loop-patterns';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-20T00:00:00Z');
// Agents whose order differs between UTF-16 and code points (U+FF5A against U+1D49C), and none.
const AGENTS = ['coder', '', '\uff5agent', '\u{1d49c}gent'];

/** A small deterministic generator, so a failure names a dataset that can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * 700 runs over 10 days, each with one to three patterns: a few that recur in most runs, a long
 * tail seen once or twice, wasted spend that ties (zero, and a few fixed amounts) as well as
 * varies, and one signature shared by every agent so the agent breaks ties.
 */
function dataset(seed: number): RunPatternRow[] {
  const next = random(seed);
  const rows: RunPatternRow[] = [];
  for (let k = 0; k < 700; k++) {
    // Every 50th run inside one hour, so even a window of minutes holds several.
    const startedAtMs =
      k % 50 === 0 ? T0 + 50 * HOUR + 10 * 60_000 + k : T0 + Math.floor(next() * 10 * 24 * HOUR);
    const agent = AGENTS[Math.floor(next() * AGENTS.length)]!;
    const wastedUsd = [0, 0.25, 1, Math.round(next() * 1e6) / 1e4][Math.floor(next() * 4)]!;
    const count = 1 + Math.floor(next() * 3);
    const seen = new Set<string>();
    for (let p = 0; p < count; p++) {
      const shared = next() < 0.05;
      const n = Math.floor(400 * next() ** 3);
      const kind = n % 3 === 0 ? 'revisit' : 'repeat';
      const signature = shared ? 'repeat:shared' : `${kind}:${n.toString(16).padStart(4, '0')}`;
      if (seen.has(signature)) continue;
      seen.add(signature);
      rows.push({
        runId: `r${k}`,
        signature,
        kind: shared ? 'repeat' : kind,
        agent,
        label: `label ${signature}`,
        startedAtMs,
        wastedUsd,
      });
    }
  }
  return rows;
}

describe('the rollup ranges of a window’s whole hours', () => {
  it('count every hour inside once and none outside, in few rows', () => {
    const next = random(3);
    for (let k = 0; k < 2000; k++) {
      const a = T0 + Math.floor(next() * 24 * 6) * HOUR;
      const b = a + Math.floor(next() * 24 * 4) * HOUR;
      const count = new Map<number, number>();
      let rows = 0;
      for (const r of wholeHours(a, b)) {
        const step = r.grain === 'day' ? 24 * HOUR : HOUR;
        expect(r.from % step).toBe(0);
        expect(r.to % step).toBe(0);
        rows += (r.to - r.from) / step;
        for (let h = r.from; h < r.to; h += HOUR) count.set(h, (count.get(h) ?? 0) + r.sign);
      }
      for (let h = a - 48 * HOUR; h < b + 48 * HOUR; h += HOUR) {
        expect(count.get(h) ?? 0, `${a} ${b} ${h}`).toBe(h >= a && h < b ? 1 : 0);
      }
      // At most 12 hour rows or a day row and 11 at each end, plus the whole days between.
      expect(rows).toBeLessThanOrEqual(26 + Math.ceil((b - a) / (24 * HOUR)));
    }
  });
});

describe.each(TEST_DATABASE_KINDS)('the loop patterns read on %s', (kind) => {
  let db: DatabaseHandle;
  let projectId: string;
  let runIds: string[];
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    projectId = await ensureProject(db.db, 'patterns-read');
    const rows = dataset(7);
    runIds = [...new Set(rows.map((r) => r.runId))];
    await db.db.transaction((tx) => replaceRunPatterns(tx, projectId, runIds, rows));
  });
  afterAll(() => db?.close());

  const windows: [string, number, number][] = [
    ['all ten days', T0 - HOUR, T0 + 11 * 24 * HOUR],
    ['a day between hours', T0 + 3 * 24 * HOUR + 17 * 60_000, T0 + 4 * 24 * HOUR + 17 * 60_000],
    ['three days and a half', T0 + 30 * HOUR + 1, T0 + 114 * HOUR - 1],
    ['twenty minutes', T0 + 50 * HOUR + 5 * 60_000, T0 + 50 * HOUR + 25 * 60_000],
    ['twenty hours of one day', T0 + 49 * HOUR + 5 * 60_000, T0 + 69 * HOUR + 5 * 60_000],
    ['three hours', T0 + 49 * HOUR + 5 * 60_000, T0 + 52 * HOUR + 5 * 60_000],
    ['nothing in it', T0 - 5 * 24 * HOUR, T0 - 4 * 24 * HOUR],
  ];
  // walkLimit 0 sums the whole window; any other walks the totals whatever the window holds.
  const read = (
    name: string,
    extra: Partial<PatternScope>,
    walkLimit: number,
    tuning: PatternTuning = { walkLimit, walkCoverage: 0 },
  ) => {
    const [, from, to] = windows.find(([n]) => n === name)!;
    return loopPatterns(
      db.db,
      { projectId, window: { from: new Date(from), to: new Date(to) }, limit: 50, ...extra },
      tuning,
    );
  };

  it.each(windows.map(([name]) => name))(
    'walking the totals finds the page that summing the whole window does: %s',
    async (name) => {
      for (const extra of [
        {},
        { limit: 1 },
        { limit: 7 },
        { limit: 500 },
        { agent: '' },
        { agent: '\u{1d49c}gent', limit: 3 },
        { kind: 'revisit' as const },
      ]) {
        const summed = await read(name, extra, 0);
        expect(await read(name, extra, Number.POSITIVE_INFINITY), JSON.stringify(extra)).toEqual(
          summed,
        );
        // A walk cut short falls back to the sum: the same page again; so does the default choice.
        expect(await read(name, extra, 120), JSON.stringify(extra)).toEqual(summed);
        expect(await read(name, extra, 0, {}), JSON.stringify(extra)).toEqual(summed);
        if (name !== 'nothing in it' && extra.agent === undefined) {
          expect(summed.length).toBeGreaterThan(0);
        }
      }
    },
  );

  it.each(windows.map(([name]) => name))(
    "sums a window to what its runs' own rows sum to: %s",
    async (name) => {
      const [, from, to] = windows.find(([n]) => n === name)!;
      const direct = await rawRows(
        db.db,
        sql`select signature, agent, count(*)::int as runs,
            sum(wasted_usd::numeric)::float8 as wasted from run_patterns
          where project_id = ${projectId}::uuid
            and started_at >= ${new Date(from).toISOString()}::timestamptz
            and started_at < ${new Date(to).toISOString()}::timestamptz
          group by 1, 2`,
      );
      const page = await read(name, { limit: 10_000 }, 0);
      const key = (signature: string, agent: string | null) => `${signature} ${agent ?? ''}`;
      expect(new Map(page.map((p) => [key(p.signature, p.agent), [p.runs, p.wastedUsd]]))).toEqual(
        new Map(
          (direct as { signature: string; agent: string; runs: number; wasted: number }[]).map(
            (d) => [key(d.signature, d.agent), [d.runs, d.wasted]],
          ),
        ),
      );
    },
  );

  it('ranks by wasted spend, then runs, then signature and agent by code point', async () => {
    const page = await read('a day between hours', { limit: 500 }, Number.POSITIVE_INFINITY);
    const points = (text: string | null) =>
      Array.from(text ?? '', (c) => c.codePointAt(0)!.toString(16).padStart(6, '0')).join('');
    const order = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    const sorted = [...page].sort(
      (a, b) =>
        b.wastedUsd - a.wastedUsd ||
        b.runs - a.runs ||
        order(a.signature, b.signature) ||
        order(points(a.agent), points(b.agent)),
    );
    expect(page).toEqual(sorted);
    // The dataset has ties on spend and runs, at zero spend too, which the walk must not stop at.
    const ties = page.filter(
      (p, k) => k > 0 && p.wastedUsd === page[k - 1]!.wastedUsd && p.runs === page[k - 1]!.runs,
    );
    expect(ties.length).toBeGreaterThan(3);
    expect(page.filter((p) => p.wastedUsd === 0).length).toBeGreaterThan(1);
    expect(
      new Set(page.filter((p) => p.signature === 'repeat:shared').map((p) => p.agent)).size,
    ).toBe(AGENTS.length);
  });

  it('the totals stay each pattern’s sum over its runs as runs are derived again and deleted', async () => {
    const totals = async () =>
      rawRows(
        db.db,
        sql`select signature, kind, agent, runs, wasted_usd::float8 as wasted from pattern_totals
          where project_id = ${projectId}::uuid order by 1, 2, 3`,
      );
    const direct = async () =>
      rawRows(
        db.db,
        sql`select signature, kind, agent, count(*)::int as runs,
            sum(wasted_usd::numeric)::float8 as wasted from run_patterns
          where project_id = ${projectId}::uuid group by 1, 2, 3 order by 1, 2, 3`,
      );
    expect(await totals()).toEqual(await direct());
    // Derived again with other patterns and spend, some with none left, some deleted outright.
    const changed = dataset(11).filter((r) => Number(r.runId.slice(1)) % 3 === 0);
    const touched = runIds.filter((id) => Number(id.slice(1)) % 3 === 0);
    await db.db.transaction((tx) => replaceRunPatterns(tx, projectId, touched, changed));
    const gone = runIds.filter((id) => Number(id.slice(1)) % 5 === 1);
    await db.db.transaction((tx) => replaceRunPatterns(tx, projectId, gone, []));
    const now = await totals();
    expect(now).toEqual(await direct());
    expect(now.length).toBeGreaterThan(50);
    expect(Number((now as { runs: number }[])[0]!.runs)).toBeGreaterThan(0);
    // And the read still agrees with the sum after the changes.
    for (const [name] of windows) {
      expect(await read(name, {}, Number.POSITIVE_INFINITY)).toEqual(await read(name, {}, 0));
    }
  });
  const clearWindows = async () => {
    await db.db.execute(sql`delete from pattern_windows`);
    await db.db.execute(sql`delete from pattern_window_anchors`);
  };
  const summedPage = (scope: PatternScope) =>
    loopPatterns(db.db, scope, { walkLimit: 0, windows: false });
  const EXTRAS: Partial<PatternScope>[] = [
    {},
    { limit: 1 },
    { limit: 7 },
    { limit: 500 },
    { agent: '' },
    { agent: '\u{1d49c}gent', limit: 3 },
    { kind: 'revisit' },
  ];

  it.each([
    ['a day to a quarter past', 1, T0 + 4 * 24 * HOUR + 15 * 60_000],
    ['three days to twenty to', 3, T0 + 5 * 24 * HOUR + 40 * 60_000],
    ['seven days to five past', 7, T0 + 9 * 24 * HOUR + 5 * 60_000],
    ['a day to the hour', 1, T0 + 6 * 24 * HOUR],
  ] as const)(
    'ranking from a built window finds the page that summing does: %s',
    async (_, days, to) => {
      await clearWindows();
      const window = { from: new Date(to - days * 24 * HOUR), to: new Date(to) };
      const hour = Math.floor(to / HOUR) * HOUR;
      // Built too long before or after the window's end: not ranked from; the read sums instead.
      for (const anchor of [
        hour - WINDOW_ANCHOR_GAP_MS - HOUR,
        hour + WINDOW_ANCHOR_GAP_MS + HOUR,
      ]) {
        await clearWindows();
        await buildPatternWindow(db.db, projectId, days, anchor);
        const far = { projectId, window, limit: 50 };
        expect(await rankFromWindow(db.db, far, 1000)).toBeNull();
        expect(await loopPatterns(db.db, far)).toEqual(await summedPage(far));
      }
      // Built up to two hours before or after the end's hour: ranked from, the same page (one
      // after the end holds runs that started after it, which the dataset has).
      for (const anchor of [hour - 2 * HOUR, hour - HOUR, hour, hour + HOUR, hour + 2 * HOUR]) {
        await clearWindows();
        expect(await buildPatternWindow(db.db, projectId, days, anchor)).toBe(true);
        expect(await buildPatternWindow(db.db, projectId, days, anchor)).toBe(false);
        for (const extra of EXTRAS) {
          const scope = { projectId, window, limit: 50, ...extra };
          const summed = await summedPage(scope);
          const ranked = await rankFromWindow(db.db, scope, 1000);
          expect(ranked, `${anchor} ${JSON.stringify(extra)}`).not.toBeNull();
          expect(await loopPatterns(db.db, scope), JSON.stringify(extra)).toEqual(summed);
          if (extra.agent === undefined) expect(summed.length).toBeGreaterThan(0);
        }
      }
      // A window of another length is not ranked from this one.
      const longer = {
        projectId,
        window: { ...window, from: new Date(to - (days + 1) * 24 * HOUR) },
        limit: 50,
      };
      expect(await rankFromWindow(db.db, longer, 1000)).toBeNull();
    },
  );

  it('a built window stays each pattern’s sum over its hours as runs are derived again and deleted', async () => {
    await clearWindows();
    const days = 7;
    const anchor = T0 + 8 * 24 * HOUR;
    await buildPatternWindow(db.db, projectId, days, anchor);
    const built = () =>
      rawRows(
        db.db,
        sql`select signature, kind, agent, runs, wasted_usd::float8 as wasted from pattern_windows
          where project_id = ${projectId}::uuid order by 1, 2, 3`,
      );
    const direct = () =>
      rawRows(
        db.db,
        sql`select signature, kind, agent, count(*)::int as runs,
            sum(wasted_usd::numeric)::float8 as wasted from run_patterns
          where project_id = ${projectId}::uuid
            and started_at >= ${new Date(anchor - days * 24 * HOUR).toISOString()}::timestamptz
            and started_at < ${new Date(anchor).toISOString()}::timestamptz
          group by 1, 2, 3 order by 1, 2, 3`,
      );
    expect(await built()).toEqual(await direct());
    const changed = dataset(13).filter((r) => Number(r.runId.slice(1)) % 4 === 0);
    const touched = runIds.filter((id) => Number(id.slice(1)) % 4 === 0);
    await db.db.transaction((tx) => replaceRunPatterns(tx, projectId, touched, changed));
    const gone = runIds.filter((id) => Number(id.slice(1)) % 7 === 2);
    await db.db.transaction((tx) => replaceRunPatterns(tx, projectId, gone, []));
    const now = await built();
    expect(now).toEqual(await direct());
    expect(now.length).toBeGreaterThan(50);
    const scope = {
      projectId,
      window: {
        from: new Date(anchor - days * 24 * HOUR + 20 * 60_000),
        to: new Date(anchor + 20 * 60_000),
      },
      limit: 50,
    };
    expect(await rankFromWindow(db.db, scope, 1000)).not.toBeNull();
    expect(await loopPatterns(db.db, scope)).toEqual(await summedPage(scope));
  });

  it("keeps every project's windows at the hour begun and the next, building each once", async () => {
    await clearWindows();
    const hour = T0 + 9 * 24 * HOUR;
    const now = hour + 42 * 60_000;
    const projects = await rawRows(db.db, sql`select count(*)::int as n from projects`);
    const each = (projects[0] as { n: number }).n * PATTERN_WINDOW_DAYS.length;
    const anchors = () =>
      rawRows(
        db.db,
        sql`select days, (extract(epoch from anchor) * 1000)::float8 as anchor
          from pattern_window_anchors where project_id = ${projectId}::uuid order by days, anchor`,
      );
    expect(await keepPatternWindows(db.db, now)).toBe(2 * each);
    expect(await keepPatternWindows(db.db, now + 10 * 60_000)).toBe(0);
    expect(await anchors()).toEqual(
      PATTERN_WINDOW_DAYS.flatMap((days) => [
        { days, anchor: hour },
        { days, anchor: hour + HOUR },
      ]),
    );
    // The next hour: the one after it is built, the one before it goes.
    expect(await keepPatternWindows(db.db, now + HOUR)).toBe(each);
    expect(await anchors()).toEqual(
      PATTERN_WINDOW_DAYS.flatMap((days) => [
        { days, anchor: hour + HOUR },
        { days, anchor: hour + 2 * HOUR },
      ]),
    );
  });

  it.runIf(kind === 'postgres')(
    'a window built while a run is derived waits for it, and holds what it changed',
    async () => {
      await clearWindows();
      const anchor = T0 + 9 * 24 * HOUR;
      const some = runIds.filter((id) => Number(id.slice(1)) % 6 === 1);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let changedIt!: () => void;
      const changed = new Promise<void>((resolve) => (changedIt = resolve));
      const deriving = db.db.transaction(async (tx) => {
        await replaceRunPatterns(tx, projectId, some, []);
        changedIt();
        await held;
      });
      await changed;
      const building = buildPatternWindow(db.db, projectId, 3, anchor);
      // The build waits for the derivation's commit: it cannot have listed its anchor yet.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(
        await rawRows(db.db, sql`select count(*)::int as n from pattern_window_anchors`),
      ).toEqual([{ n: 0 }]);
      release();
      await deriving;
      expect(await building).toBe(true);
      const scope = {
        projectId,
        window: { from: new Date(anchor - 3 * 24 * HOUR), to: new Date(anchor) },
        limit: 500,
      };
      expect(await rankFromWindow(db.db, scope, 10_000)).toEqual(
        (await summedPage(scope)).map(({ signature, kind, agent, runs, wastedUsd }) => ({
          signature,
          kind,
          agent: agent ?? '',
          runs,
          wasted_usd: wastedUsd,
        })),
      );
    },
  );
});

// Sessions, tags and who verified (RunSummary's second-wave fields), read end to end: real OTel
// exporters into a real server on PGlite and on Postgres, answered by the read API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { createSender } from '@/e2e/support/otel';
import { emitRun, oscillation } from '@/e2e/support/scenarios';
import type { RunSpec } from '@/e2e/support/scenarios';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { RunSummary } from '@/lib/api-types';
import { rawRows } from '@/db/test-database';
import { storedAndRecomputedRollups } from '@/db/write/test-rollups';
import { sql } from 'drizzle-orm';

describe.each(TEST_DATABASE_KINDS)('sessions, tags and verification source on %s', (kind) => {
  let server: TestServer;
  let other: { projectId: string; key: string };
  const ids: Record<string, string> = {};
  const base = Date.now() - 3600_000;

  const call = async <T>(
    path: string,
    init: RequestInit = {},
    key = server.key,
  ): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${server.url}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...init.headers,
      },
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  };
  const run = async (id: string) =>
    (await call<{ run: RunSummary }>(`/api/v1/runs/${id}`)).body.run;

  beforeAll(async () => {
    server = await startTestServer(kind);
    const sender = createSender({ url: server.url, key: server.key });
    const at = (k: number) => base + k * 60_000;
    const specs: Record<string, RunSpec> = {
      sessionLoop: {
        goal: 'Answer the billing question',
        agent: 'support',
        startMs: at(0),
        attributes: { 'loop.session.id': 'conv-42', 'loop.tags': ['prod', 'billing'] },
        steps: [{ action: 'lookup_invoice', args: { id: 7 }, costUsd: 0.02 }],
        end: { termination: { kind: 'goal_met' } },
      },
      sessionFallback: {
        goal: 'Refund the duplicate charge',
        agent: 'support',
        startMs: at(1),
        attributes: { 'session.id': 'conv-42', 'tag.tags': 'prod, refunds' },
        steps: [
          {
            action: 'refund',
            args: { charge: 'ch_1' },
            verdict: 'pass',
            verdictSource: 'environment',
            costUsd: 0.05,
          },
        ],
        end: { termination: { kind: 'goal_met' } },
      },
      conversation: {
        goal: 'Summarise the thread',
        agent: 'writer',
        startMs: at(2),
        attributes: { 'gen_ai.conversation.id': 'thread-9' },
        steps: [{ action: 'summarise', args: {}, costUsd: 0.01 }],
        end: { termination: { kind: 'goal_met' }, verified: true },
      },
      verdictRun: {
        goal: 'Close the stale tickets',
        agent: 'triage',
        runId: 'verdict-run',
        startMs: at(4),
        steps: [{ action: 'close', args: { stale: true }, costUsd: 0.4 }],
        end: { termination: { kind: 'goal_met' } },
      },
      searchable: {
        goal: 'Rotate the 100%_done\\key "quoted" it\'s here',
        agent: 'keeper',
        variant: 'variant-zeta',
        startMs: at(5),
        steps: [
          { action: 'purge_cache_xq', args: {}, fail: 'permission', costUsd: 0.01 },
          { action: 'ask_operator', args: {}, costUsd: 0.01 },
        ],
        end: { termination: { kind: 'hard_error', error: 'vault sealed unexpectedly' } },
      },
      // A revisit at step 3 (states A, B, A, B): steps 3 and 4 are wasted, $0.10.
      loopVerdict: oscillation(undefined, { runId: 'loop-verdict', startMs: at(6) }),
      alone: {
        goal: 'Tidy the backlog',
        agent: 'writer',
        startMs: at(3),
        steps: [{ action: 'tidy', args: {}, verdict: 'pass', verdictSource: 'self' }],
        end: { termination: { kind: 'goal_met' } },
      },
    };
    for (const [name, spec] of Object.entries(specs)) ids[name] = emitRun(sender.tracer, spec);
    ids.verdictRun = 'verdict-run';
    await sender.shutdown();
    other = await server.newProject('elsewhere');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reads the session id from loop.session.id, session.id or gen_ai.conversation.id', async () => {
    expect((await run(ids.sessionLoop!)).sessionId).toBe('conv-42');
    expect((await run(ids.sessionFallback!)).sessionId).toBe('conv-42');
    expect((await run(ids.conversation!)).sessionId).toBe('thread-9');
    expect((await run(ids.alone!)).sessionId).toBeNull();
  });

  it('reads tags from a string array or comma-separated text, and none as []', async () => {
    expect((await run(ids.sessionLoop!)).tags).toEqual(['prod', 'billing']);
    expect((await run(ids.sessionFallback!)).tags).toEqual(['prod', 'refunds']);
    expect((await run(ids.alone!)).tags).toEqual([]);
  });

  it('says who settled verification: environment, review, or no one', async () => {
    expect(await run(ids.sessionFallback!)).toMatchObject({
      verification: 'verified',
      verificationSource: 'environment',
    });
    expect(await run(ids.conversation!)).toMatchObject({
      verification: 'verified',
      verificationSource: 'review',
    });
    expect(await run(ids.alone!)).toMatchObject({
      verification: 'unverified',
      verificationSource: null,
    });
  });

  it('every list carries the three fields', async () => {
    const { body } = await call<{ runs: RunSummary[] }>('/api/v1/runs?limit=10');
    const listed = body.runs.find((r) => r.id === ids.sessionLoop);
    expect(listed).toMatchObject({
      sessionId: 'conv-42',
      tags: ['prod', 'billing'],
      verificationSource: null,
    });
  });

  describe("a person's verdict", () => {
    const verdict = (id: string, body: unknown, key = server.key) =>
      call<{ run: RunSummary }>(
        `/api/v1/runs/${encodeURIComponent(id)}/verdict`,
        { method: 'POST', body: JSON.stringify(body) },
        key,
      );
    const takeBack = (id: string) =>
      call<{ run: RunSummary }>(`/api/v1/runs/${encodeURIComponent(id)}/verdict`, {
        method: 'DELETE',
      });
    const week = async (agent: string) => {
      const { body } = await call<{
        weeks: { group: string; verifiedRuns: number; verifiedUnits: number }[];
      }>(`/api/v1/reports/weekly?groupBy=agent`);
      const rows = body.weeks.filter((w) => w.group === agent);
      return {
        verifiedRuns: rows.reduce((n, w) => n + w.verifiedRuns, 0),
        verifiedUnits: rows.reduce((n, w) => n + w.verifiedUnits, 0),
      };
    };
    const fabricated = async () =>
      (await call<{ runs: RunSummary[] }>('/api/v1/runs?flag=fabricatedSuccess')).body.runs.map(
        (r) => r.id,
      );

    it('contradicting an environment-verified success makes it a fabricated success everywhere', async () => {
      const id = ids.sessionFallback!;
      expect(await week('support')).toEqual({ verifiedRuns: 1, verifiedUnits: 1 });
      const { status, body } = await verdict(id, {
        verdict: 'contradicted',
        note: 'the refund never reached the customer',
      });
      expect(status).toBe(200);
      expect(body.run).toMatchObject({
        verification: 'contradicted',
        verificationSource: 'human',
        verifiedUnits: 0,
        flags: { fabricatedSuccess: true },
      });
      expect(await run(id)).toMatchObject({ verificationSource: 'human' });
      expect(await fabricated()).toContain(id);
      expect(await week('support')).toEqual({ verifiedRuns: 0, verifiedUnits: 0 });

      const back = await takeBack(id);
      expect(back.status).toBe(200);
      expect(back.body.run).toMatchObject({
        verification: 'verified',
        verificationSource: 'environment',
        verifiedUnits: 1,
        flags: { fabricatedSuccess: false },
      });
      expect(await fabricated()).not.toContain(id);
      expect(await week('support')).toEqual({ verifiedRuns: 1, verifiedUnits: 1 });
    });

    it('a verdict on a looping run moves its wasted spend out of every rollup and back, exactly', async () => {
      const rollupLoops = async () => {
        await server.settle();
        const { stored, recomputed } = await storedAndRecomputedRollups(
          server.database.db,
          server.projectId,
        );
        expect(stored).toEqual(recomputed);
        const [row] = await rawRows(
          server.database.db,
          sql`select trim_scale(sum(wasted_usd))::text as wasted, sum(loop_runs)::int as loops,
                (select trim_scale(sum(wasted_usd))::text from weekly_rollups
                  where project_id = ${server.projectId}::uuid and agent = 'coder') as weekly
              from run_category_rollups
              where project_id = ${server.projectId}::uuid and grain = 'day'`,
        );
        return row;
      };
      expect(await run('loop-verdict')).toMatchObject({
        wastedUsd: 0.1,
        flags: { revisit: { step: 3, of: 1, cycleLength: 2 } },
      });
      expect(await rollupLoops()).toEqual({ wasted: '0.1', loops: 1, weekly: '0.1' });
      // Verified by a person: nothing was wasted, though the run still looped.
      const { body } = await verdict('loop-verdict', { verdict: 'verified' });
      expect(body.run.wastedUsd).toBe(0);
      expect(await rollupLoops()).toEqual({ wasted: '0', loops: 1, weekly: '0' });
      await takeBack('loop-verdict');
      expect(await rollupLoops()).toEqual({ wasted: '0.1', loops: 1, weekly: '0.1' });
    });

    it('verifying with units counts them in the weekly report, and survives new spans', async () => {
      expect(await week('triage')).toEqual({ verifiedRuns: 0, verifiedUnits: 0 });
      const { body } = await verdict('verdict-run', { verdict: 'verified', units: 3 });
      expect(body.run).toMatchObject({
        verification: 'verified',
        verificationSource: 'human',
        verifiedUnits: 3,
      });
      expect(await week('triage')).toEqual({ verifiedRuns: 1, verifiedUnits: 3 });
      // A late span of the same run derives it again: the person's verdict stays.
      const sender = createSender({ url: server.url, key: server.key });
      emitRun(sender.tracer, {
        goal: 'Close the stale tickets',
        agent: 'triage',
        runId: 'verdict-run',
        startMs: base + 4 * 60_000 + 5_000,
        steps: [{ action: 'report', args: {}, costUsd: 0.1 }],
        end: null,
      });
      await sender.shutdown();
      const after = await run('verdict-run');
      expect(after.traceIds).toHaveLength(2);
      expect(after).toMatchObject({ verificationSource: 'human', verifiedUnits: 3 });
      // Verified defaults to one unit.
      expect((await verdict('verdict-run', { verdict: 'verified' })).body.run.verifiedUnits).toBe(
        1,
      );
      expect(await week('triage')).toEqual({ verifiedRuns: 1, verifiedUnits: 1 });
      await server.settle();
      const { stored, recomputed } = await storedAndRecomputedRollups(
        server.database.db,
        server.projectId,
      );
      expect(stored).toEqual(recomputed);
    });

    it.each([
      ['an unknown verdict', { verdict: 'maybe' }, 'verdict'],
      ['negative units', { verdict: 'verified', units: -1 }, 'units'],
      ['units as text', { verdict: 'verified', units: 'many' }, 'units'],
      ['a note of 2001 characters', { verdict: 'verified', note: 'x'.repeat(2001) }, 'note'],
      ['a NUL in the note', { verdict: 'verified', note: 'nul \u0000 here' }, 'note'],
      ['no verdict', {}, 'verdict'],
    ])('answers 400 for %s naming it, and changes nothing', async (_, bad, field) => {
      const { status, body } = await verdict(ids.alone!, bad);
      expect(status).toBe(400);
      expect((body as unknown as { error: { code: string; message: string } }).error).toMatchObject(
        { code: 'bad_request', message: expect.stringContaining(field) },
      );
      expect(await run(ids.alone!)).toMatchObject({ verificationSource: null });
    });

    it('another project cannot see or judge the run: 404, and the run is untouched', async () => {
      const posted = await verdict(ids.alone!, { verdict: 'contradicted' }, other.key);
      expect(posted.status).toBe(404);
      const deleted = await call(
        `/api/v1/runs/${ids.alone}/verdict`,
        { method: 'DELETE' },
        other.key,
      );
      expect(deleted.status).toBe(404);
      expect(await run(ids.alone!)).toMatchObject({ verification: 'unverified' });
      expect((await verdict('no-such-run', { verdict: 'verified' })).status).toBe(404);
    });
  });

  describe('search (q)', () => {
    const search = async (q: string, key = server.key) => {
      const { status, body } = await call<{ runs: RunSummary[] }>(
        `/api/v1/runs?q=${encodeURIComponent(q)}`,
        {},
        key,
      );
      expect(status).toBe(200);
      return body.runs.map((r) => r.id);
    };

    it.each([
      ['the goal', 'Rotate'],
      ['the agent', 'KEEPER'],
      ['the variant', 'zeta'],
      ['an action', 'purge_cache'],
      ['the exit reason', 'hard_error'],
      ['the exit detail', 'vault sealed'],
      ['an error message', 'purge_cache_xq failed'],
    ])('finds a run by words in %s (%s)', async (_, q) => {
      expect(await search(q)).toEqual([ids.searchable]);
    });

    it('needs every word, in any order; none found is an empty list', async () => {
      expect(await search('sealed rotate')).toEqual([ids.searchable]);
      expect(await search('sealed billing')).toEqual([]);
      expect(await search('nothing-like-this')).toEqual([]);
    });

    it.each([
      ['%', ['searchable']],
      ['__', []],
      ['100%_done', ['searchable']],
      ['0%_', ['searchable']],
      ['\\key', ['searchable']],
      ['"quoted"', ['searchable']],
      ["it's", ['searchable']],
      ["' or 1=1 --", []],
      ['\\', ['searchable']],
      ['%%%', []],
    ])('treats %j as the text it is', async (q, expected) => {
      expect(await search(q)).toEqual(expected.map((name) => ids[name]));
    });

    it('combines with the other filters and stays inside the project', async () => {
      const { body } = await call<{ runs: RunSummary[] }>(
        `/api/v1/runs?q=rotate&agent=someone-else`,
      );
      expect(body.runs).toEqual([]);
      const other = await server.newProject('searcher-elsewhere');
      expect(await search('rotate', other.key)).toEqual([]);
    });

    it('answers 400 for a q too long or not text', async () => {
      const long = await call(`/api/v1/runs?q=${'a'.repeat(201)}`);
      expect(long.status).toBe(400);
      const nul = await call(`/api/v1/runs?q=a%00b`);
      expect(nul.status).toBe(400);
    });
  });

  describe('filters beside the search', () => {
    const list = async (query: string) =>
      (await call<{ runs: RunSummary[] }>(`/api/v1/runs?${query}`)).body.runs.map((r) => r.id);

    it('verification, model and cost above', async () => {
      expect(await list('verification=contradicted&agent=keeper')).toEqual([]);
      expect(await list('verification=unverified&agent=keeper')).toEqual([ids.searchable]);
      const expensive = await list('costAbove=0.3');
      expect(expensive).toContain('verdict-run');
      expect(expensive).not.toContain(ids.alone);
      expect(await list('model=no-such-model')).toEqual([]);
      expect((await call(`/api/v1/runs?costAbove=-1`)).status).toBe(400);
    });
  });

  describe('sessions', () => {
    interface Session {
      id: string;
      agent: string | null;
      runs: number;
      startedAt: string;
      endedAt: string | null;
      costUsd: number;
      verifiedUnits: number;
      exitCategories: Record<string, number>;
    }

    it('lists runs with one session id as one session, the latest first, with their totals', async () => {
      const { status, body } = await call<{ sessions: Session[]; nextCursor: string | null }>(
        '/api/v1/sessions',
      );
      expect(status).toBe(200);
      expect(body.sessions.map((s) => s.id)).toEqual(['thread-9', 'conv-42']);
      const conv = body.sessions.find((s) => s.id === 'conv-42')!;
      expect(conv).toMatchObject({
        agent: 'support',
        runs: 2,
        exitCategories: { goal_satisfied: 2 },
      });
      expect(conv.costUsd).toBeCloseTo(0.07, 10);
      expect(conv.endedAt).not.toBeNull();
      expect(Date.parse(conv.startedAt)).toBeLessThan(Date.parse(conv.endedAt!));
      expect(body.nextCursor).toBeNull();
    });

    it('pages with a cursor and filters by agent', async () => {
      const first = await call<{ sessions: Session[]; nextCursor: string | null }>(
        '/api/v1/sessions?limit=1',
      );
      expect(first.body.sessions.map((s) => s.id)).toEqual(['thread-9']);
      const second = await call<{ sessions: Session[]; nextCursor: string | null }>(
        `/api/v1/sessions?limit=1&cursor=${first.body.nextCursor}`,
      );
      expect(second.body.sessions.map((s) => s.id)).toEqual(['conv-42']);
      expect(second.body.nextCursor).toBeNull();
      const writer = await call<{ sessions: Session[] }>('/api/v1/sessions?agent=writer');
      expect(writer.body.sessions.map((s) => s.id)).toEqual(['thread-9']);
      expect((await call('/api/v1/sessions?cursor=nonsense')).status).toBe(400);
    });

    it('one session has its runs in start order; another project sees none of it', async () => {
      const { status, body } = await call<{ session: Session; runs: RunSummary[] }>(
        '/api/v1/sessions/conv-42',
      );
      expect(status).toBe(200);
      expect(body.runs.map((r) => r.id)).toEqual([ids.sessionLoop, ids.sessionFallback]);
      expect(body.session).toMatchObject({ id: 'conv-42', runs: 2, verifiedUnits: 1 });
      expect((await call('/api/v1/sessions/no-such-session')).status).toBe(404);
      expect((await call('/api/v1/sessions/conv-42', {}, other.key)).status).toBe(404);
      const elsewhere = await call<{ sessions: Session[] }>('/api/v1/sessions', {}, other.key);
      expect(elsewhere.body.sessions).toEqual([]);
    });
  });
});

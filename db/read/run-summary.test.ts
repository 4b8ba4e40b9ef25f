// A listed run comes back as one JSON value a row (run-summary.ts `runSummaryRow`): every column's
// values at and past its type's edge must read as they do from the row selected column by column.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../lib/api-types';
import type { DatabaseHandle } from '../client';
import { ensureProject } from '../projects';
import { runs } from '../schema';
import { TEST_DATABASE_KINDS, createTestDatabase } from '../test-database';
import { saveRuns } from '../write/save-runs';
import { testRunRow } from '../write/test-run-row';
import { listRuns } from './list-runs';
import { runSummaryRow, toRunSummary } from './run-summary';
import { getSession } from './sessions';

const BASE = Date.parse('2026-11-20T00:00:00Z');
/** The latest start ingest can store: 2^64 - 1 ns after the epoch (fixed64), in ms. */
const LATEST_MS = 18_446_744_073_709;

/** Each run's columns set, in SQL, to values at a type's edge. */
const EDGES: Record<string, string> = {
  'edge-nan': `cost_usd = 'NaN', wasted_usd = 'Infinity', verified_units = '-Infinity',
    duration_ms = 'NaN'`,
  'edge-tiny': `cost_usd = 5e-324, wasted_usd = '-0', verified_units = 1.7976931348623157e308,
    duration_ms = -1.5e-300`,
  'edge-ints': `input_tokens = 9223372036854775807, output_tokens = 9007199254740993,
    step_count = 2147483647, repeat_step = 2147483647, repeat_of = -2147483648,
    revisit_step = 0, revisit_of = 0, revisit_cycle = 2, stall_step = 1,
    tool_circuit_step = 3, tool_circuit_tool = ''`,
  'edge-text': `agent = E'quote " back \\\\ slash \\t tab \\n line \\u0001 ctl',
    goal = '</script><b>日本語</b> café 🦜 ' || repeat('x', 20000),
    variant = '', exit_reason = E'\\u2028\\u2029', tags = ARRAY['a,b', '{c}', '"d"', 'NULL', ''],
    trace_ids = ARRAY[]::text[], session_id = 's "1"'`,
  'edge-time': `started_at = to_timestamp(${LATEST_MS} / 1000.0),
    ended_at = to_timestamp(${LATEST_MS} / 1000.0)`,
  'edge-epoch': `started_at = to_timestamp(0.001), ended_at = to_timestamp(0.002)`,
  'edge-unknown-kind': `exit_category = 'budget_exhausted', exit_kind = 'fortnight',
    verification = 'verified', verification_source = 'oracle'`,
  'edge-flags': `exit_kind = 'tokens', verification_source = 'human',
    fabricated_success = true, unexplained_stop = true`,
};

describe.each(TEST_DATABASE_KINDS)('a listed run read as one value on %s', (kind) => {
  let handle: DatabaseHandle;
  let projectId: string;
  const ids = Object.keys(EDGES);
  beforeAll(async () => {
    handle = await createTestDatabase(kind);
    projectId = await ensureProject(handle.db, 'edges');
    const rows = ids.map((id, k) =>
      testRunRow(id, BASE + k * 1000, { sessionId: 'edge-session', endedAtMs: BASE + k * 1000 }),
    );
    await handle.db.transaction((tx) => saveRuns(tx, projectId, rows, [], []));
    for (const id of ids) {
      await handle.db.execute(
        sql`update runs set ${sql.raw(EDGES[id]!)}
          where project_id = ${projectId}::uuid and id = ${id}`,
      );
    }
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** The run as it reads from its whole row, column by column (the driver's own parsing). */
  async function columnByColumn(id: string): Promise<RunSummary> {
    const [row] = await handle.db
      .select()
      .from(runs)
      .where(and(eq(runs.projectId, projectId), eq(runs.id, id)));
    return toRunSummary(row!);
  }

  it('the runs list reads each edge value as the whole row does', async () => {
    const window = { from: new Date(0), to: new Date(LATEST_MS + 1) };
    const page = await listRuns(handle.db, {
      projectId,
      window,
      sort: 'startedAt',
      order: 'asc',
      limit: 50,
    });
    expect(page.runs.map((r) => r.id).sort()).toEqual([...ids].sort());
    for (const run of page.runs) {
      const whole = await columnByColumn(run.id);
      if (run.id === 'edge-unknown-kind') {
        // Text this version does not know reads as none; the rest of the run as it is.
        expect(whole.exitKind).toBe('fortnight');
        expect(run).toEqual({ ...whole, exitKind: null, verificationSource: null });
      } else {
        expect(run).toEqual(whole);
      }
    }
    const byId = new Map(page.runs.map((r) => [r.id, r]));
    expect(byId.get('edge-nan')!.costUsd).toBeNaN();
    expect(byId.get('edge-nan')!.wastedUsd).toBe(Number.POSITIVE_INFINITY);
    expect(Object.is(byId.get('edge-tiny')!.wastedUsd, -0)).toBe(true);
    expect(byId.get('edge-tiny')!.costUsd).toBe(5e-324);
    expect(byId.get('edge-ints')!.outputTokens).toBe(Number('9007199254740993'));
    expect(byId.get('edge-time')!.startedAt).toBe(new Date(LATEST_MS).toISOString());
    expect(byId.get('edge-text')!.goal).toContain('</script><b>日本語</b> café 🦜 ');
    expect(byId.get('edge-text')!.tags).toEqual(['a,b', '{c}', '"d"', 'NULL', '']);
  });

  it('a session reads its runs alike', async () => {
    const session = await getSession(handle.db, { projectId, sessionId: 'edge-session' });
    const listed = session!.runs.map((r) => r.id);
    expect([...listed].sort()).toEqual(ids.filter((id) => id !== 'edge-text').sort());
    expect(listed[0]).toBe('edge-epoch');
    expect(listed.at(-1)).toBe('edge-time');
    for (const run of session!.runs.filter((r) => r.id !== 'edge-unknown-kind')) {
      expect(run).toEqual(await columnByColumn(run.id));
    }
  });

  it('a value of the wrong kind is an error naming the column, not a wrong number', async () => {
    const [selected] = await handle.db
      .select({ row: runSummaryRow.select })
      .from(runs)
      .where(and(eq(runs.projectId, projectId), eq(runs.id, 'edge-flags')));
    const values = JSON.parse(selected!.row) as unknown[];
    expect(runSummaryRow.parse(JSON.stringify(values)).exitKind).toBe('tokens');
    const costAt = values.indexOf(0);
    const withText = values.map((v, k) => (k === costAt ? '12' : v));
    expect(() => runSummaryRow.parse(JSON.stringify(withText))).toThrow(
      /a listed run's \w+ is not readable: expected a number, got string/,
    );
    expect(() => runSummaryRow.parse(JSON.stringify(values.slice(1)))).toThrow(
      'a listed run is not the array of its 31 columns',
    );
    const badCategory = values.map((v) => (v === 'goal_satisfied' ? 'finished' : v));
    expect(() => runSummaryRow.parse(JSON.stringify(badCategory))).toThrow(/exitCategory/);
  });
});

// The conformance suite: every committed capture of a real framework (conformance/captures) is
// sent, request by request and byte for byte, to the real ingest endpoint (replay-pglite.test.ts
// and replay-postgres.test.ts run it on each database, in parallel), and the runs read back
// through the read API must carry the capture's truth, except the fields KNOWN_GAPS lists, which
// must still read wrong.
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRows } from '@/db/test-database';
import type { TestDatabaseKind } from '@/db/test-database';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { RunSummary, StepJson as Step } from '@/lib/api-types';
import { captureSpans, readCapture, requestBody } from './read-capture';
import type { OtlpSpan } from '@/ingest/otlp/types';
import type { Capture, ExpectedRun } from './read-capture';
import { KNOWN_GAPS } from './known-gaps';

const CAPTURES = join(import.meta.dirname, 'captures');
const WINDOW = 'from=2000-01-01T00:00:00Z&to=2999-01-01T00:00:00Z&limit=500';

const captureDirs = readdirSync(CAPTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((framework) =>
    readdirSync(join(CAPTURES, framework.name), { withFileTypes: true })
      .filter(
        (d) =>
          d.isDirectory() && existsSync(join(CAPTURES, framework.name, d.name, 'capture.json')),
      )
      .map((d) => `${framework.name}/${d.name}`),
  )
  .filter((name) => name.startsWith(process.env.CONFORMANCE_ONLY ?? ''))
  .sort();

interface Read {
  run: RunSummary;
  steps: Step[];
  fragment: boolean;
}

async function getJson<T>(server: TestServer, key: string, path: string): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

interface Replayed {
  found: Map<string, Read | null>;
  /** every run of the capture is listed with flag=fragment */
  allFragments: boolean;
}

async function replay(server: TestServer, name: string, capture: Capture): Promise<Replayed> {
  const dir = join(CAPTURES, name);
  const spans = captureSpans(dir);
  const project = await server.newProject(name);
  for (const request of capture.requests) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${project.key}`,
      'content-type': request.contentType,
    };
    if (request.contentEncoding) headers['content-encoding'] = request.contentEncoding;
    const response = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers,
      body: new Uint8Array(requestBody(dir, request)),
    });
    expect(response.status, `${name}/${request.file}`).toBe(200);
  }
  await server.settle(project.projectId);
  // A run that failed to derive reads as missing or stale below; its error says why.
  const failures = await rawRows(
    server.database.db,
    sql`select run_id, error from derive_failures where project_id = ${project.projectId}::uuid
      order by run_id`,
  );
  expect(failures, `${name}: runs that failed to derive`).toEqual([]);
  const { runs } = await getJson<{ runs: RunSummary[] }>(
    server,
    project.key,
    `/api/v1/runs?${WINDOW}`,
  );
  const fragments = await getJson<{ runs: RunSummary[] }>(
    server,
    project.key,
    `/api/v1/runs?${WINDOW}&flag=fragment`,
  );
  const fragmentIds = new Set(fragments.runs.map((r) => r.id));
  const found = new Map<string, Read | null>();
  for (const expected of capture.expect.runs) {
    const summary = findRun(runs, expected.key, spans);
    if (!summary) {
      found.set(expected.key, null);
      continue;
    }
    const { run } = await getJson<{ run: RunSummary }>(
      server,
      project.key,
      `/api/v1/runs/${encodeURIComponent(summary.id)}`,
    );
    const { steps } = await getJson<{ steps: Step[] }>(
      server,
      project.key,
      `/api/v1/runs/${encodeURIComponent(summary.id)}/steps`,
    );
    found.set(expected.key, { run, steps, fragment: fragmentIds.has(summary.id) });
  }
  return { found, allFragments: runs.length > 0 && runs.every((r) => fragmentIds.has(r.id)) };
}

/**
 * `agent:<name>`: the run whose agent is <name>, or else (the agent's name is read wrong, which
 * `fields` reports) the run holding the trace of a span named <name> or with an attribute equal to
 * it; `only`: the one run of the capture.
 */
function findRun(runs: RunSummary[], key: string, spans: OtlpSpan[]): RunSummary | undefined {
  if (key === 'only') return runs.length === 1 ? runs[0] : undefined;
  const [kind, ...rest] = key.split(':');
  const value = rest.join(':');
  if (kind !== 'agent') throw new Error(`unknown run key ${key}`);
  const byAgent = runs.find((r) => r.agent === value);
  if (byAgent) return byAgent;
  const traces = new Set(
    spans
      .filter(
        (s) =>
          s.name === value ||
          s.name.endsWith(` ${value}`) ||
          Object.values(s.attributes).includes(value),
      )
      .map((s) => s.traceId),
  );
  return runs.find((r) => r.traceIds.some((t) => traces.has(t)));
}

/** Each checked field of a run as read back, beside the truth. */
function fields(expected: ExpectedRun, read: Read | null): Array<[string, unknown, unknown]> {
  if (!read) return [['found', true, false]];
  const { run, steps } = read;
  const rows: Array<[string, unknown, unknown]> = [
    ...(expected.key.startsWith('agent:')
      ? [['agent', expected.key.slice(6), run.agent] as [string, unknown, unknown]]
      : []),
    ['exitCategory', expected.exitCategory, run.exitCategory],
    ['exitKind', expected.exitKind, run.exitKind],
    ['stepCount', expected.stepCount, run.stepCount],
    ['signals.repeat', expected.signals.repeat, run.flags.repeat !== null],
    ['signals.revisit', expected.signals.revisit, run.flags.revisit !== null],
    ['signals.stall', expected.signals.stall, run.flags.stall !== null],
    ['signals.toolCircuit', expected.signals.toolCircuit, run.flags.toolCircuit !== null],
    ['inputTokens', expected.inputTokens, run.inputTokens],
    ['outputTokens', expected.outputTokens, run.outputTokens],
    ['actions', expected.actions, steps.map((s) => s.action).filter((a) => a !== null)],
    ['fragment', expected.fragment, read.fragment],
  ];
  if (expected.costUsd !== undefined) {
    rows.push(['costUsd', expected.costUsd, Number(run.costUsd.toFixed(8))]);
  }
  return rows;
}

const CHECKED_FIELDS = [
  'found',
  'agent',
  'exitCategory',
  'exitKind',
  'stepCount',
  'signals.repeat',
  'signals.revisit',
  'signals.stall',
  'signals.toolCircuit',
  'inputTokens',
  'outputTokens',
  'actions',
  'fragment',
  'costUsd',
  'fragments',
];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Runs `work` over `items`, at most `limit` at a time, in order; each result under its item. */
function pooled<T>(
  items: string[],
  limit: number,
  work: (item: string) => Promise<T>,
): Map<string, Promise<T>> {
  const results = new Map<string, Promise<T>>();
  const lanes: Promise<unknown>[] = Array.from({ length: limit }, () => Promise.resolve());
  items.forEach((item, i) => {
    const lane = i % limit;
    const result = (lanes[lane] ?? Promise.resolve()).then(() => work(item));
    lanes[lane] = result.catch(() => undefined);
    results.set(item, result);
  });
  return results;
}

export function describeReplay(kind: TestDatabaseKind): void {
  describe(`conformance captures replayed on ${kind}`, () => {
    let server: TestServer;
    let replays: Map<string, Promise<Replayed>>;
    beforeAll(async () => {
      server = await startTestServer(kind);
      // Derive once per capture, when all of it has arrived (settle), rather than again and again
      // in the background while its requests stream in: the same derivation, a fraction of the CPU.
      server.runtime.deriver.stop();
      // Each capture goes to its own project, its requests in order; captures replay side by side.
      replays = pooled(captureDirs, 4, (name) =>
        replay(server, name, readCapture(join(CAPTURES, name))),
      );
    });
    afterAll(async () => {
      await Promise.allSettled(replays?.values() ?? []);
      await server?.close();
    });

    it.each(captureDirs)('%s', async (name) => {
      const capture = readCapture(join(CAPTURES, name));
      expect(`${capture.framework}/${capture.scenario}`).toBe(name);
      const { found, allFragments } = await replays.get(name)!;
      if (process.env.CONFORMANCE_DEBUG) console.log(name, JSON.stringify([...found], null, 1));
      const checks: Array<[string, string, unknown, unknown]> = capture.expect.runs.flatMap(
        (expected) =>
          fields(expected, found.get(expected.key) ?? null).map(
            ([field, want, got]) =>
              [expected.key, field, want, got] as [string, string, unknown, unknown],
          ),
      );
      if (capture.expect.fragments === 'all') checks.push(['*', 'fragments', true, allFragments]);
      const problems: string[] = [];
      for (const [key, field, want, got] of checks) {
        const gap = KNOWN_GAPS.find(
          (g) => g.capture === name && g.run === key && g.field === field,
        );
        if (gap && same(want, got)) {
          problems.push(
            `${key} ${field}: known gap now reads right (${JSON.stringify(got)}): remove it from KNOWN_GAPS`,
          );
        } else if (!gap && !same(want, got)) {
          problems.push(
            `${key} ${field}: expected ${JSON.stringify(want)}, read ${JSON.stringify(got)}`,
          );
        }
      }
      if (process.env.CONFORMANCE_REPORT) {
        const rows = checks
          .filter(([, , want, got]) => !same(want, got))
          .map(([key, field, want, got]) =>
            JSON.stringify({ kind, capture: name, run: key, field, want, got }),
          );
        appendFileSync(process.env.CONFORMANCE_REPORT, rows.map((r) => `${r}\n`).join(''));
      }
      expect(problems).toEqual([]);
    });

    it('lists no known gap for a capture, run or field that is not checked', () => {
      const missing = KNOWN_GAPS.filter((gap) => {
        if (!CHECKED_FIELDS.includes(gap.field)) return true;
        if (!existsSync(join(CAPTURES, gap.capture, 'capture.json'))) return true;
        const { expect: truth } = readCapture(join(CAPTURES, gap.capture));
        return !(
          truth.runs.some((r) => r.key === gap.run) ||
          (gap.run === '*' && truth.fragments === 'all')
        );
      });
      expect(missing).toEqual([]);
    });
  });
}

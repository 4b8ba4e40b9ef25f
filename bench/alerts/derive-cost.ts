// What alert rules cost ingest and derivation: the same runs sent through /v1/traces and derived,
// with no rule, with eight enabled run rules that fire on none of them, and with eight that fire
// on every run (outbox rows written in the derive transaction). Ingest never judges rules; the
// numbers show whether derivation, which follows every 200, slows.
// `node --import tsx bench/alerts/derive-cost.ts [runs] [pglite|postgres]`
import { startTestServer } from '../../e2e/support/test-server';
import { runBody } from '../../e2e/support/alert-runs';
import type { TestDatabaseKind } from '../../db/test-database';

const RUNS = Number(process.argv[2] ?? 1000);
const KINDS = (process.argv[3]?.split(',') ?? ['pglite', 'postgres']) as TestDatabaseKind[];
const BATCH = 50;

type Setup = 'no rules' | '8 rules, none fire' | '8 rules, all fire';

async function measure(kind: TestDatabaseKind, setup: Setup) {
  const server = await startTestServer(kind, { ingestQueue: 1000 });
  // Stopped, the deriver ignores the kick ingest gives after each commit: ingest and derivation
  // are timed apart.
  server.runtime.deriver.stop();
  await server.runtime.deriver.idle();
  server.runtime.alertSender.stop();
  const post = (path: string, body: string) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body,
    });
  if (setup !== 'no rules') {
    const fire = setup === '8 rules, all fire';
    for (let k = 0; k < 8; k++) {
      const when = fire
        ? { kind: 'run_cost_over', usd: 0 }
        : { kind: 'run_cost_over', usd: 1e6 + k };
      const answer = await post(
        '/api/v1/alerts/rules',
        JSON.stringify({
          name: `r${k}`,
          when,
          webhook: { url: 'http://127.0.0.1:9/x', format: 'json' },
        }),
      );
      if (answer.status !== 200) throw new Error(`rule: ${answer.status}`);
    }
  }
  const bodies: string[] = [];
  for (let b = 0; b < RUNS / BATCH; b++) {
    const spans = [];
    for (let r = 0; r < BATCH; r++) {
      const n = b * BATCH + r;
      const body = JSON.parse(
        runBody({
          traceId: `be7c${n.toString(16).padStart(28, '0')}`,
          agent: 'bench',
          exitReason: 'goal_met',
          steps: [1, 2, 3, 4, 5].map((s) => ({ action: `a${s}`, state: `s${s}`, costUsd: 0.01 })),
        }),
      ) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] };
      spans.push(...body.resourceSpans[0]!.scopeSpans[0]!.spans);
    }
    bodies.push(JSON.stringify({ resourceSpans: [{ resource: {}, scopeSpans: [{ spans }] }] }));
  }
  const t0 = performance.now();
  for (const body of bodies) {
    const answer = await post('/v1/traces', body);
    if (answer.status !== 200) throw new Error(`ingest: ${answer.status}`);
  }
  const t1 = performance.now();
  await server.settle();
  const t2 = performance.now();
  await server.close();
  return { ingestMs: t1 - t0, deriveMs: t2 - t1 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const kind of KINDS) {
  const setups: Setup[] = ['no rules', '8 rules, none fire', '8 rules, all fire'];
  const results = new Map<Setup, { ingestMs: number[]; deriveMs: number[] }>();
  // Interleaved rounds, so a change in the machine's load falls on every setup alike.
  for (let round = 0; round < 5; round++) {
    for (const setup of setups) {
      const m = await measure(kind, setup);
      const r = results.get(setup) ?? { ingestMs: [], deriveMs: [] };
      r.ingestMs.push(m.ingestMs);
      r.deriveMs.push(m.deriveMs);
      results.set(setup, r);
    }
  }
  const base = results.get('no rules')!;
  for (const setup of setups) {
    const r = results.get(setup)!;
    const ingest = median(r.ingestMs);
    const derive = median(r.deriveMs);
    console.log(
      `${kind} | ${setup} | ingest ${RUNS} runs (${RUNS * 6} spans): ${ingest.toFixed(0)} ms (${(
        ingest / median(base.ingestMs)
      ).toFixed(
        2,
      )} ×) | derive: ${derive.toFixed(0)} ms (${(derive / median(base.deriveMs)).toFixed(2)} ×)`,
    );
  }
}
process.exit(0);

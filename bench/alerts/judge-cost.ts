// The derive step's own alert work, timed alone (the end-to-end numbers of derive-cost.ts drown
// in a loaded machine's noise): fireRunAlerts on a batch of 50 derived runs, inside a
// transaction as the deriver runs it, with no rule, with 8 enabled run rules that fire on none,
// and with 8 that fire on all (400 outbox rows per batch, each batch new runs).
// `node --import tsx bench/alerts/judge-cost.ts [batches]`
import { createTestDatabase, TEST_DATABASE_KINDS } from '../../db/test-database';
import { ensureProject } from '../../db/projects';
import { insertRule } from '../../db/write/alert-rules';
import { testRunRow } from '../../db/write/test-run-row';
import { fireRunAlerts } from '../../derive/fire-run-alerts';

const BATCHES = Number(process.argv[2] ?? 200);
const BATCH = 50;

for (const kind of TEST_DATABASE_KINDS) {
  const database = await createTestDatabase(kind);
  const { db } = database;
  for (const [setup, usd] of [
    ['no rules', null],
    ['8 rules, none fire', 1e6],
    ['8 rules, all fire', 0],
  ] as const) {
    const projectId = await ensureProject(db, `p-${setup}`);
    if (usd !== null) {
      for (let k = 0; k < 8; k++) {
        await insertRule(db, projectId, {
          name: `r${k}`,
          enabled: true,
          when: { kind: 'run_cost_over', usd },
          agent: null,
          webhookUrl: 'http://127.0.0.1:9/x',
          webhookFormat: 'json',
          secretSealed: null,
        });
      }
    }
    const times: number[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const runs = Array.from({ length: BATCH }, (_, r) =>
        testRunRow(`run-${b}-${r}`, Date.now(), { costUsd: 1 }),
      );
      const t0 = performance.now();
      await db.transaction((tx) => fireRunAlerts(tx, projectId, runs));
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.floor(q * (times.length - 1))]!.toFixed(2);
    console.log(
      `${kind} | ${setup} | per batch of ${BATCH} runs: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms`,
    );
  }
  await database.close();
}
process.exit(0);

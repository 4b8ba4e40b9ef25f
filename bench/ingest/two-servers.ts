// Ingest with two server processes on one Postgres database against one: each server driven by
// a load generator of its own with the lanes the one-server ladder found best, for the same
// window; the spans both acknowledged in it, summed. What a second process buys on this machine.
import { spoolEmpty } from '../shared/spool';
import type { BenchDatabase } from '../shared/databases';
import { startBuiltServer } from '../shared/server';
import type { BenchServer } from '../shared/server';
import { startLoadGenerator } from './load-driver';
import type { LoadGenerator } from './load-driver';

export interface TwoServerResult {
  lanesEach: number;
  spansPerSecond: number;
  acked: number;
  stored: number;
  failures: number;
}

export async function measureTwoServers(
  database: BenchDatabase,
  settings: {
    lanesEach: number;
    warmupMs: number;
    windowMs: number;
    batchSize: number;
    stepsPerRun: number;
  },
): Promise<TwoServerResult> {
  const servers: BenchServer[] = [];
  const generators: LoadGenerator[] = [];
  try {
    // One after another: the second waits on the first's migration otherwise (it would pass).
    for (let k = 0; k < 2; k++) servers.push(await startBuiltServer(database));
    for (let k = 0; k < 2; k++) generators.push(await startLoadGenerator());
    const results = await Promise.all(
      servers.map((server, k) =>
        generators[k]!.run({
          type: 'closed',
          url: server.url,
          key: server.key,
          lanes: settings.lanesEach,
          batchSize: settings.batchSize,
          stepsPerRun: settings.stepsPerRun,
          warmupMs: settings.warmupMs,
          durationMs: settings.windowMs,
        }),
      ),
    );
    for (const generator of generators) await generator.close();
    // Both servers' workers share one spool: it is empty once either sees it empty.
    await spoolEmpty(servers[0]!.url);
    for (const server of servers) await server.stop();
    const [counted] = await servers[0]!.query('select count(*)::int as n from spans');
    return {
      lanesEach: settings.lanesEach,
      spansPerSecond: results.reduce((sum, r) => sum + (r.spansInWindow * 1000) / r.windowMs, 0),
      acked: results.reduce((sum, r) => sum + r.spansAcked, 0),
      stored: Number(counted?.n),
      failures: results.reduce((sum, r) => sum + r.exportsFailed, 0),
    };
  } finally {
    for (const generator of generators) await generator.close();
    for (const server of servers) {
      await server.stop();
      await server.close();
    }
  }
}

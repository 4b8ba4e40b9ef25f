// Quick measure of the write stage alone (ingestSpans), PGlite and Postgres.
import { createTestDatabase } from '../../db/test-database';
import { ensureProject } from '../../db/projects';
import { ingestSpans } from '../../ingest/ingest-spans';
import { deriveMarkedRuns } from '../../ingest/derive-queue';
import { loopSettings } from '../../lib/settings';
import { readPriceFile } from '../../lib/settings';
import { PriceTable } from '../../trajectory/pricing';
import { workload } from './workload';

const context = { prices: new PriceTable(readPriceFile('prices.json')), settings: loopSettings() };
const batches = workload(400, 12);
const spans = batches.reduce((n, b) => n + b.length, 0);
for (const kind of ['postgres', 'pglite'] as const) {
  const handle = await createTestDatabase(kind);
  const projectId = await ensureProject(handle.db, 'bench');
  const t0 = performance.now();
  for (const batch of batches) await ingestSpans(handle.db, projectId, batch);
  while ((await deriveMarkedRuns(handle.db, context)) > 0);
  const s = (performance.now() - t0) / 1000;
  console.log(`${kind}: ${spans} spans in ${s.toFixed(2)} s = ${(spans / s).toFixed(0)} spans/s`);
  await handle.close();
}

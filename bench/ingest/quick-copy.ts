import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import postgres from 'postgres';
import { createTestDatabase } from '../../db/test-database';
import { ensureProject } from '../../db/projects';
import { extractSpanFacts } from '../../ingest/span-facts';
import { workload } from './workload';

const batches = workload(400, 12);
const spans = batches.flat();
const handle = await createTestDatabase('postgres');
const projectId = await ensureProject(handle.db, 'bench');
const esc = (v: string) =>
  v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
const lines = spans.map(
  (s) =>
    [
      projectId,
      s.traceId,
      s.spanId,
      s.parentSpanId ?? '\\N',
      esc(s.name),
      s.kind,
      s.startMs,
      s.endMs ?? '\\N',
      s.statusCode,
      esc(s.statusMessage),
      esc(JSON.stringify(s.attributes)),
      esc(JSON.stringify(s.events)),
      esc(JSON.stringify(s.resource)),
      s.scopeName,
      esc(JSON.stringify(extractSpanFacts(s))),
    ].join('\t') + '\n',
);
const sql = postgres(handle.url!, { max: 1 });
const t0 = performance.now();
const writable =
  await sql`copy spans (project_id, trace_id, span_id, parent_span_id, name, kind, start_ms, end_ms, status_code, status_message, attributes, events, resource, scope_name, facts) from stdin`.writable();
await pipeline(Readable.from(lines), writable);
const s = (performance.now() - t0) / 1000;
console.log(
  `COPY: ${spans.length} rows in ${s.toFixed(2)} s = ${(spans.length / s).toFixed(0)} rows/s`,
);
await sql.end();
await handle.close();

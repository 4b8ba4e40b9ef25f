// The limits ingest is compared with, on the same database: COPY of the very rows ingest writes
// (spans with their facts, the trace→run map, the dirty marks) in one transaction, and the write
// stage alone (`ingestSpans` on batches decoded beforehand), one writer or several.
import { ingestSpans } from '../../ingest/ingest-spans';
import { extractSpanFacts } from '../../ingest/span-facts';
import type { ValidSpan } from '../../ingest/validate';
import type { CopyInput, OpenDatabase } from '../shared/databases';

/** The tables ingest writes; emptied before each measurement so each starts alike. */
export const INGEST_TABLES = ['spans', 'trace_runs', 'dirty_runs'];

export async function emptyIngestTables(database: OpenDatabase): Promise<void> {
  await database.query(`truncate ${INGEST_TABLES.join(', ')}`);
}

const SPAN_COLUMNS = [
  'project_id',
  'trace_id',
  'span_id',
  'parent_span_id',
  'name',
  'kind',
  'start_ms',
  'end_ms',
  'status_code',
  'status_message',
  'attributes',
  'events',
  'resource',
  'scope_name',
  'facts',
] as const;

/** COPY text format: backslash, tab, newline and carriage return escaped; \N for null. */
function field(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

const line = (values: (string | number | null)[]) => `${values.map(field).join('\t')}\n`;

/** The COPY input for every span of `batches`, as ingest would store them (facts included). */
export function copyInputs(projectId: string, batches: readonly ValidSpan[][]): CopyInput[] {
  const spans: string[] = [];
  const traces = new Set<string>();
  for (const batch of batches) {
    for (const s of batch) {
      traces.add(s.traceId);
      spans.push(
        line([
          projectId,
          s.traceId,
          s.spanId,
          s.parentSpanId,
          s.name,
          s.kind,
          s.startMs,
          s.endMs,
          s.statusCode,
          s.statusMessage,
          JSON.stringify(s.attributes),
          JSON.stringify(s.events),
          JSON.stringify(s.resource),
          s.scopeName,
          JSON.stringify(extractSpanFacts(s)),
        ]),
      );
    }
  }
  // Without `loop.run.id` a trace is its own run: one map row and one mark per trace.
  const traceRows = [...traces].map((t) => line([projectId, t, t])).join('');
  const markRows = [...traces].map((t) => line([projectId, t])).join('');
  return [
    { table: 'spans', columns: SPAN_COLUMNS, text: spans.join('') },
    { table: 'trace_runs', columns: ['project_id', 'trace_id', 'run_id'], text: traceRows },
    { table: 'dirty_runs', columns: ['project_id', 'run_id'], text: markRows },
  ];
}

/** Span rows per second of COPY, best of `repeats` (each into emptied tables). */
export async function measureCopy(
  database: OpenDatabase,
  projectId: string,
  batches: readonly ValidSpan[][],
  repeats: number,
): Promise<{ rowsPerSecond: number; rows: number; bytes: number }> {
  const inputs = copyInputs(projectId, batches);
  const rows = batches.reduce((n, b) => n + b.length, 0);
  let best = 0;
  for (let k = 0; k < repeats; k++) {
    await emptyIngestTables(database);
    const t0 = performance.now();
    await database.copy(inputs);
    best = Math.max(best, rows / ((performance.now() - t0) / 1000));
  }
  const stored = Number((await database.query('select count(*)::int as n from spans'))[0]?.n);
  if (stored !== rows) throw new Error(`COPY stored ${stored} of ${rows} rows`);
  return { rowsPerSecond: best, rows, bytes: inputs.reduce((n, i) => n + i.text.length, 0) };
}

/**
 * Spans per second of `ingestSpans` over every batch, `writers` batches in flight at once; best
 * of `repeats` (each into emptied tables), as COPY is.
 */
export async function measureWriteStage(
  database: OpenDatabase,
  projectId: string,
  batches: readonly ValidSpan[][],
  writers: number,
  repeats: number,
): Promise<number> {
  const spans = batches.reduce((n, b) => n + b.length, 0);
  let best = 0;
  for (let k = 0; k < repeats; k++) {
    await emptyIngestTables(database);
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: writers }, async () => {
        for (let b = next++; b < batches.length; b = next++) {
          await ingestSpans(database.db, projectId, batches[b] as ValidSpan[]);
        }
      }),
    );
    best = Math.max(best, spans / ((performance.now() - t0) / 1000));
    const stored = Number((await database.query('select count(*)::int as n from spans'))[0]?.n);
    if (stored !== spans) throw new Error(`the write stage stored ${stored} of ${spans} spans`);
  }
  return best;
}

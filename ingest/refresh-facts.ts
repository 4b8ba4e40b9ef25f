// Facts are read from a span once, when it arrives. A run quarantined because an older version
// read a span wrongly would fail again forever on the same stored facts, so at start the spans
// of every quarantined run are read again from their raw attributes and events.
import type { Database } from '../db/client';
import { loadRawSpans, quarantinedRuns, replaceSpanFacts } from '../db/write/raw-spans';
import type { SpanFacts } from '../trajectory/span-facts';
import type { Attributes, OtlpEvent } from './otlp/types';
import { extractSpanFacts } from './span-facts';

/** Problems only validation can see (the raw times are not kept): carried over as they were. */
const TIME_KEYS = new Set(['endTimeUnixNano']);

export async function refreshQuarantinedFacts(db: Database): Promise<number> {
  let refreshed = 0;
  for (const [projectId, runIds] of await quarantinedRuns(db)) {
    await db.transaction(async (tx) => {
      const spans = await loadRawSpans(tx, projectId, runIds);
      const rows = spans.map((s) => {
        const old = s.facts as SpanFacts | null;
        const facts = extractSpanFacts({
          name: s.name,
          attributes: asAttributes(s.attributes),
          events: Array.isArray(s.events) ? (s.events as OtlpEvent[]) : [],
          statusCode: s.status_code,
          statusMessage: s.status_message,
          resource: asAttributes(s.resource),
          problems: (old?.problems ?? []).filter((p) => TIME_KEYS.has(p.key)),
        });
        return { traceId: s.trace_id, spanId: s.span_id, facts };
      });
      await replaceSpanFacts(tx, projectId, rows);
      refreshed += rows.length;
    });
  }
  return refreshed;
}

function asAttributes(value: unknown): Attributes {
  const out = Object.create(null) as Attributes;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) out[k] = v as Attributes[string];
  }
  return out;
}

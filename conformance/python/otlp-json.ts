// OTLP/JSON as the Python SDK's exporter encodes a batch (protobuf mapped to JSON): hex ids,
// unix-nano times as strings, int64 values as strings, spans grouped by resource and scope in the
// order the BatchSpanProcessor hands them over (as they end). Ids and times are derived from the
// scenario's name, so every run of the generator writes the same bytes.
import { createHash } from 'node:crypto';

export type Value = string | number | boolean | string[] | { double: number };
export type Attrs = Record<string, Value>;

export interface EventSpec {
  name: string;
  atMs: number;
  attributes?: Attrs;
}

export interface SpanSpec {
  name: string;
  parent?: SpanSpec;
  kind?: 'INTERNAL' | 'CLIENT';
  startMs: number;
  endMs: number;
  attributes: Attrs;
  events?: EventSpec[];
  status?: { code: 'UNSET' | 'OK' | 'ERROR'; message?: string };
  spanId?: string;
}

const KIND = { INTERNAL: 1, CLIENT: 3 } as const;
const STATUS = { UNSET: 0, OK: 1, ERROR: 2 } as const;
/** 2026-01-05T09:00:00Z: every scenario's clock starts here, one hour apart. */
const EPOCH_MS = Date.UTC(2026, 0, 5, 9);

function hex(seed: string, length: number): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, length);
}

function anyValue(value: Value): Record<string, unknown> {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') {
    return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  }
  if (Array.isArray(value)) return { arrayValue: { values: value.map((v) => anyValue(v)) } };
  return { doubleValue: value.double };
}

export function encodeAttributes(attrs: Attrs = {}) {
  return Object.entries(attrs).map(([key, value]) => ({ key, value: anyValue(value) }));
}

const nanos = (ms: number) => `${BigInt(Math.round(ms * 1000)) * 1000n}`;

export interface Batch {
  scenario: string;
  /** Position of the scenario in the suite: its clock starts this many hours after the epoch. */
  slot: number;
  resource: Attrs;
  scope: { name: string; version?: string };
  spans: SpanSpec[];
}

/** One ExportTraceServiceRequest: every span of the scenario, in the order they ended. */
export function exportRequest(batch: Batch): unknown {
  const traceId = hex(`trace:${batch.scenario}`, 32);
  const base = EPOCH_MS + batch.slot * 3_600_000;
  batch.spans.forEach((span, k) => (span.spanId = hex(`span:${batch.scenario}:${k}`, 16)));
  const ordered = [...batch.spans].sort((a, b) => a.endMs - b.endMs);
  return {
    resourceSpans: [
      {
        resource: { attributes: encodeAttributes(batch.resource) },
        scopeSpans: [
          {
            scope: batch.scope.version
              ? { name: batch.scope.name, version: batch.scope.version }
              : { name: batch.scope.name },
            spans: ordered.map((span) => ({
              traceId,
              spanId: span.spanId,
              ...(span.parent ? { parentSpanId: span.parent.spanId } : {}),
              flags: 256,
              name: span.name,
              kind: KIND[span.kind ?? 'INTERNAL'],
              startTimeUnixNano: nanos(base + span.startMs),
              endTimeUnixNano: nanos(base + span.endMs),
              attributes: encodeAttributes(span.attributes),
              events: (span.events ?? []).map((event) => ({
                timeUnixNano: nanos(base + event.atMs),
                name: event.name,
                attributes: encodeAttributes(event.attributes),
              })),
              status: span.status
                ? {
                    code: STATUS[span.status.code],
                    ...(span.status.message ? { message: span.status.message } : {}),
                  }
                : {},
            })),
          },
        ],
      },
    ],
  };
}

export function pythonResource(serviceName: string): Attrs {
  return {
    'telemetry.sdk.language': 'python',
    'telemetry.sdk.name': 'opentelemetry',
    'telemetry.sdk.version': '1.30.0',
    'service.name': serviceName,
  };
}

/** Python's `json.dumps` with its default separators (", " and ": "), as the frameworks emit. */
export function pyJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value ?? null);
}

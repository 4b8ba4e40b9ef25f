import type {
  AttributeValue,
  Attributes,
  DecodedRequest,
  OtlpEvent,
  OtlpSpan,
  SpanOrigin,
} from './otlp/types';
import type { ValueProblem } from './value-bounds';

export type ValidSpan = Omit<OtlpSpan, 'parentSpanId' | 'endMs'> & {
  /** null for a root span (the parent id was empty or all zeros). */
  parentSpanId: string | null;
  /** null while the span has not ended (end time absent). */
  endMs: number | null;
  /** Times that could not be used as sent (an end before the start). */
  problems?: ValueProblem[];
};

export interface ValidationResult {
  spans: ValidSpan[];
  /** Exact count of spans rejected, by the decoder and here: the partial_success `rejected_spans`. */
  rejectedCount: number;
  /** The first few reasons, for partial_success `error_message`. */
  messages: string[];
}

export const LIMITS = {
  /** String attribute values (also inside arrays and kvlists) and status messages, in UTF-8 bytes. */
  valueBytes: 16 * 1024,
  /** Span, event and scope names, in UTF-8 bytes. */
  nameBytes: 1024,
  eventsPerSpan: 128,
  attributesPerSpan: 256,
  messages: 10,
} as const;

/** Set on a span (or event) that had more attributes than the limit: how many were dropped. */
export const DROPPED_ATTRIBUTES_KEY = 'loopscope.dropped_attributes';
/** Set on a span that had more events than the limit: how many were dropped. */
export const DROPPED_EVENTS_KEY = 'loopscope.dropped_events';

const HEX = /^[0-9a-f]*$/;
const ALL_ZERO = /^0*$/;
// NUL cannot be stored in Postgres text or jsonb; jsonb also rejects unpaired surrogates.
const UNSAFE = /[\0\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const PRIORITY_KEY = /^(?:loop|gen_ai)\./;

/**
 * Rejects spans that cannot be identified or placed in time (partial success, never the whole request) and
 * makes the rest safe to store: no NUL or lone surrogates, long strings truncated, events and attributes capped.
 * Takes ownership of `decoded`: attribute objects are sanitized in place where possible.
 */
export function validateSpans(decoded: DecodedRequest): ValidationResult {
  const spans: ValidSpan[] = [];
  const messages = decoded.rejected ? decoded.rejected.messages.slice(0, LIMITS.messages) : [];
  let rejectedCount = decoded.rejected?.count ?? 0;
  const resources = new Map<Attributes, Attributes>();
  const origins = decoded.origins ?? [];
  let o = -1;
  for (let i = 0; i < decoded.spans.length; i++) {
    const span = decoded.spans[i] as OtlpSpan;
    while (o + 1 < origins.length && (origins[o + 1] as SpanOrigin).firstSpan <= i) o++;
    const problem = spanProblem(span);
    if (problem !== null) {
      rejectedCount++;
      if (messages.length < LIMITS.messages) messages.push(`${where(origins[o], i)}: ${problem}`);
      continue;
    }
    let resource = resources.get(span.resource);
    if (resource === undefined) {
      resource = sanitizeAttributes(span.resource, Infinity);
      resources.set(span.resource, resource);
    }
    spans.push(sanitizeSpan(span, resource));
  }
  return { spans, rejectedCount, messages };
}

function where(origin: SpanOrigin | undefined, i: number): string {
  if (origin === undefined) return `span ${i}`;
  return `span ${origin.firstIndex + i - origin.firstSpan} of ${origin.path}`;
}

function spanProblem(span: OtlpSpan): string | null {
  const idProblem = checkId('traceId', span.traceId, 16) ?? checkId('spanId', span.spanId, 8);
  if (idProblem !== null) return idProblem;
  const parent = span.parentSpanId;
  if (!HEX.test(parent)) return 'parentSpanId is not hex';
  if (parent.length !== 0 && parent.length !== 16 && !ALL_ZERO.test(parent)) {
    return `parentSpanId must be empty or 8 bytes (16 hex digits), got ${describeBytes(parent)}`;
  }
  if (span.startMs === 0) return 'startTimeUnixNano is missing';
  if (!Number.isFinite(span.startMs)) return 'startTimeUnixNano is not a finite time';
  return null;
}

function checkId(name: string, id: string, bytes: number): string | null {
  if (!HEX.test(id)) return `${name} is not hex`;
  if (id.length !== bytes * 2)
    return `${name} must be ${bytes} bytes (${bytes * 2} hex digits), got ${describeBytes(id)}`;
  if (ALL_ZERO.test(id)) return `${name} must not be all zeros`;
  return null;
}

function describeBytes(hex: string): string {
  if (hex.length === 0) return 'none';
  const bytes = hex.length / 2;
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

function sanitizeSpan(span: OtlpSpan, resource: Attributes): ValidSpan {
  const parent = span.parentSpanId;
  const attributes = sanitizeAttributes(span.attributes, LIMITS.attributesPerSpan);
  let events = span.events;
  if (events.length > LIMITS.eventsPerSpan) {
    // Keep both ends: the last events of a run are often the exception that says why it stopped.
    const half = LIMITS.eventsPerSpan / 2;
    attributes[DROPPED_EVENTS_KEY] = events.length - LIMITS.eventsPerSpan;
    events = [...events.slice(0, half), ...events.slice(events.length - half)];
  }
  const problems: ValueProblem[] = [];
  let endMs = span.endMs === 0 || !Number.isFinite(span.endMs) ? null : span.endMs;
  if (endMs !== null && endMs < span.startMs) {
    // A negative duration would make every sum of durations wrong without saying so.
    problems.push({
      key: 'endTimeUnixNano',
      value: `${Math.round((span.startMs - endMs) * 1e3) / 1e3} ms before the start`,
      problem: 'ends before it starts: stored as ending at its start',
    });
    endMs = span.startMs;
  }
  return {
    ...span,
    parentSpanId: parent === '' || ALL_ZERO.test(parent) ? null : parent,
    name: cleanText(span.name, LIMITS.nameBytes),
    endMs,
    ...(problems.length > 0 ? { problems } : {}),
    // Enum values the protocol does not define are stored as unspecified (0), not refused.
    kind: span.kind >= 0 && span.kind <= 5 ? span.kind : 0,
    statusCode: span.statusCode >= 0 && span.statusCode <= 2 ? span.statusCode : 0,
    attributes,
    events: events.map((e) => sanitizeEvent(e, span.startMs)),
    statusMessage: cleanText(span.statusMessage, LIMITS.valueBytes),
    resource,
    scopeName: cleanText(span.scopeName, LIMITS.nameBytes),
  };
}

function sanitizeEvent(event: OtlpEvent, spanStartMs: number): OtlpEvent {
  return {
    name: cleanText(event.name, LIMITS.nameBytes),
    // An event without a usable time sits at its span's start rather than at 1970.
    timeMs: event.timeMs > 0 && Number.isFinite(event.timeMs) ? event.timeMs : spanStartMs,
    attributes: sanitizeAttributes(event.attributes, LIMITS.attributesPerSpan),
  };
}

/** Sanitizes in place when no key changes; otherwise builds a new null-prototype object. */
function sanitizeAttributes(attributes: Attributes, limit: number): Attributes {
  const keys = Object.keys(attributes);
  if (keys.length <= limit && !keys.some((key) => UNSAFE.test(key))) {
    for (const key of keys) attributes[key] = sanitizeValue(attributes[key] as AttributeValue);
    return attributes;
  }
  const kept =
    keys.length <= limit
      ? keys
      : [
          ...keys.filter((k) => PRIORITY_KEY.test(k)),
          ...keys.filter((k) => !PRIORITY_KEY.test(k)),
        ].slice(0, limit);
  const out = Object.create(null) as Attributes;
  for (const key of kept)
    out[cleanText(key, Infinity)] = sanitizeValue(attributes[key] as AttributeValue);
  if (keys.length > limit) out[DROPPED_ATTRIBUTES_KEY] = keys.length - limit;
  return out;
}

function sanitizeValue(value: AttributeValue): AttributeValue {
  if (typeof value === 'string') return cleanText(value, LIMITS.valueBytes);
  // jsonb has no NaN or Infinity; keep them as the proto3 JSON mapping spells them.
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = sanitizeValue(value[i] as AttributeValue);
    return value;
  }
  if (value !== null && typeof value === 'object') return sanitizeAttributes(value, Infinity);
  return value;
}

/** Strips NUL, replaces unpaired surrogates with U+FFFD, and cuts to `maxBytes` of UTF-8 plus a marker. */
export function cleanText(text: string, maxBytes: number): string {
  const clean = UNSAFE.test(text)
    ? text.replaceAll('\0', '').replace(LONE_SURROGATE, '\uFFFD')
    : text;
  if (clean.length * 3 <= maxBytes) return clean;
  const bytes = Buffer.from(clean, 'utf8');
  if (bytes.length <= maxBytes) return clean;
  let cut = maxBytes;
  while (cut > 0 && ((bytes[cut] as number) & 0xc0) === 0x80) cut--;
  return `${bytes.toString('utf8', 0, cut)}…[truncated ${bytes.length - cut} bytes]`;
}

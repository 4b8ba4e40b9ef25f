import { AppError, isAppError } from '../../lib/app-error';
import * as F from './otlp-fields';
import { ProtoReader, int64Value, nanosToMs } from './proto-reader';
import type {
  AttributeValue,
  Attributes,
  DecodedRequest,
  OtlpEvent,
  OtlpSpan,
  SpanOrigin,
} from './types';

export const MAX_ANY_VALUE_DEPTH = 32;

/** Decodes an OTLP/protobuf ExportTraceServiceRequest. Wire-level corruption throws AppError('malformed_body'). */
export function decodeProtobufRequest(bytes: Uint8Array): DecodedRequest {
  const r = new ProtoReader(bytes);
  const spans: OtlpSpan[] = [];
  const origins: SpanOrigin[] = [];
  try {
    const end = bytes.length;
    let resourceIndex = 0;
    while (r.pos < end) {
      const tag = r.tag(end, 'ExportTraceServiceRequest');
      if (tag !== F.REQUEST_RESOURCE_SPANS) {
        r.skip(tag, end);
        continue;
      }
      const resourceEnd = r.lengthEnd(end);
      readResourceSpans(r, resourceEnd, resourceIndex++, spans, origins);
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    // A decoder bug must still answer 400, not 500; the prefix lets tests catch it.
    throw new AppError('malformed_body', `protobuf: undecodable body (${String(error)})`, {
      cause: error,
    });
  }
  return { spans, origins };
}

function readResourceSpans(
  r: ProtoReader,
  end: number,
  index: number,
  spans: OtlpSpan[],
  origins: SpanOrigin[],
): void {
  // Spans share one resource object, filled whenever the resource field appears (field order is free).
  const resource = newAttributes();
  let scopeIndex = 0;
  let legacyIndex = 0;
  while (r.pos < end) {
    const tag = r.tag(end, 'ResourceSpans');
    if (tag === F.RESOURCE_SPANS_RESOURCE) {
      const resourceEnd = r.lengthEnd(end);
      while (r.pos < resourceEnd) {
        const resourceTag = r.tag(resourceEnd, 'Resource');
        if (resourceTag === F.RESOURCE_ATTRIBUTES)
          readKeyValue(r, r.lengthEnd(resourceEnd), resource, 0);
        else r.skip(resourceTag, resourceEnd);
      }
    } else if (tag === F.RESOURCE_SPANS_SCOPE_SPANS) {
      const path = `resourceSpans[${index}].scopeSpans[${scopeIndex++}]`;
      readScopeSpans(r, r.lengthEnd(end), 'ScopeSpans', path, resource, spans, origins);
    } else if (tag === F.RESOURCE_SPANS_INSTRUMENTATION_LIBRARY_SPANS) {
      const path = `resourceSpans[${index}].instrumentationLibrarySpans[${legacyIndex++}]`;
      readScopeSpans(
        r,
        r.lengthEnd(end),
        'InstrumentationLibrarySpans',
        path,
        resource,
        spans,
        origins,
      );
    } else r.skip(tag, end);
  }
}

function readScopeSpans(
  r: ProtoReader,
  end: number,
  message: string,
  path: string,
  resource: Attributes,
  spans: OtlpSpan[],
  origins: SpanOrigin[],
): void {
  const first = spans.length;
  let scopeName = '';
  while (r.pos < end) {
    const tag = r.tag(end, message);
    if (tag === F.SCOPE_SPANS_SPANS) {
      if (spans.length === first) origins.push({ path, firstSpan: first, firstIndex: 0 });
      spans.push(readSpan(r, r.lengthEnd(end), resource));
    } else if (tag === F.SCOPE_SPANS_SCOPE) {
      const scopeEnd = r.lengthEnd(end);
      while (r.pos < scopeEnd) {
        const scopeTag = r.tag(scopeEnd, 'InstrumentationScope');
        if (scopeTag === F.SCOPE_NAME) {
          const nameEnd = r.lengthEnd(scopeEnd);
          scopeName = r.string(r.pos, nameEnd);
          r.pos = nameEnd;
        } else r.skip(scopeTag, scopeEnd);
      }
    } else r.skip(tag, end);
  }
  for (let i = first; i < spans.length; i++) (spans[i] as OtlpSpan).scopeName = scopeName;
}

function readSpan(r: ProtoReader, end: number, resource: Attributes): OtlpSpan {
  const span: OtlpSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    name: '',
    kind: 0,
    startMs: 0,
    endMs: 0,
    attributes: newAttributes(),
    events: [],
    statusCode: 0,
    statusMessage: '',
    resource,
    scopeName: '',
  };
  while (r.pos < end) {
    const tag = r.tag(end, 'Span');
    switch (tag) {
      case F.SPAN_TRACE_ID:
      case F.SPAN_SPAN_ID:
      case F.SPAN_PARENT_SPAN_ID:
      case F.SPAN_NAME: {
        const valueEnd = r.lengthEnd(end);
        if (tag === F.SPAN_NAME) span.name = r.string(r.pos, valueEnd);
        else if (tag === F.SPAN_TRACE_ID) span.traceId = r.hex(r.pos, valueEnd);
        else if (tag === F.SPAN_SPAN_ID) span.spanId = r.hex(r.pos, valueEnd);
        else span.parentSpanId = r.hex(r.pos, valueEnd);
        r.pos = valueEnd;
        break;
      }
      case F.SPAN_KIND:
        r.varint64(end);
        span.kind = r.lo | 0;
        break;
      case F.SPAN_START_TIME:
        r.fixed64(end);
        span.startMs = nanosToMs(r.lo, r.hi);
        break;
      case F.SPAN_END_TIME:
        r.fixed64(end);
        span.endMs = nanosToMs(r.lo, r.hi);
        break;
      case F.SPAN_ATTRIBUTES:
        readKeyValue(r, r.lengthEnd(end), span.attributes, 0);
        break;
      case F.SPAN_EVENTS:
        span.events.push(readEvent(r, r.lengthEnd(end)));
        break;
      case F.SPAN_STATUS:
        readStatus(r, r.lengthEnd(end), span);
        break;
      default:
        r.skip(tag, end);
    }
  }
  return span;
}

function readEvent(r: ProtoReader, end: number): OtlpEvent {
  const event: OtlpEvent = { name: '', timeMs: 0, attributes: newAttributes() };
  while (r.pos < end) {
    const tag = r.tag(end, 'Span.Event');
    if (tag === F.EVENT_TIME) {
      r.fixed64(end);
      event.timeMs = nanosToMs(r.lo, r.hi);
    } else if (tag === F.EVENT_NAME) {
      const nameEnd = r.lengthEnd(end);
      event.name = r.string(r.pos, nameEnd);
      r.pos = nameEnd;
    } else if (tag === F.EVENT_ATTRIBUTES) readKeyValue(r, r.lengthEnd(end), event.attributes, 0);
    else r.skip(tag, end);
  }
  return event;
}

function readStatus(r: ProtoReader, end: number, span: OtlpSpan): void {
  while (r.pos < end) {
    const tag = r.tag(end, 'Status');
    if (tag === F.STATUS_MESSAGE) {
      const messageEnd = r.lengthEnd(end);
      span.statusMessage = r.string(r.pos, messageEnd);
      r.pos = messageEnd;
    } else if (tag === F.STATUS_CODE) {
      r.varint64(end);
      span.statusCode = r.lo | 0;
    } else r.skip(tag, end);
  }
}

/** One KeyValue into `into`; `depth` is the AnyValue depth of the list holding it. */
function readKeyValue(r: ProtoReader, end: number, into: Attributes, depth: number): void {
  let key = '';
  let value: AttributeValue = null;
  while (r.pos < end) {
    const tag = r.tag(end, 'KeyValue');
    if (tag === F.KEY_VALUE_KEY) {
      const keyEnd = r.lengthEnd(end);
      key = r.key(r.pos, keyEnd);
      r.pos = keyEnd;
    } else if (tag === F.KEY_VALUE_VALUE) value = readAnyValue(r, r.lengthEnd(end), depth + 1);
    else r.skip(tag, end);
  }
  into[key] = value;
}

function readAnyValue(r: ProtoReader, end: number, depth: number): AttributeValue {
  if (depth > MAX_ANY_VALUE_DEPTH)
    r.fail(`AnyValue nested deeper than ${MAX_ANY_VALUE_DEPTH} levels`);
  // A oneof: when several members are sent, the last one wins.
  let value: AttributeValue = null;
  while (r.pos < end) {
    const tag = r.tag(end, 'AnyValue');
    switch (tag) {
      case F.ANY_STRING: {
        const valueEnd = r.lengthEnd(end);
        value = r.string(r.pos, valueEnd);
        r.pos = valueEnd;
        break;
      }
      case F.ANY_BOOL:
        r.varint64(end);
        value = r.lo !== 0 || r.hi !== 0;
        break;
      case F.ANY_INT:
        r.varint64(end);
        value = int64Value(r.lo, r.hi);
        break;
      case F.ANY_DOUBLE:
        value = r.double(end);
        break;
      case F.ANY_ARRAY:
        value = readArray(r, r.lengthEnd(end), depth);
        break;
      case F.ANY_KVLIST: {
        const listEnd = r.lengthEnd(end);
        const list = newAttributes();
        while (r.pos < listEnd) {
          const listTag = r.tag(listEnd, 'KeyValueList');
          if (listTag === F.LIST_VALUES) readKeyValue(r, r.lengthEnd(listEnd), list, depth);
          else r.skip(listTag, listEnd);
        }
        value = list;
        break;
      }
      case F.ANY_BYTES: {
        const valueEnd = r.lengthEnd(end);
        value = r.base64(r.pos, valueEnd);
        r.pos = valueEnd;
        break;
      }
      default:
        r.skip(tag, end);
    }
  }
  return value;
}

function readArray(r: ProtoReader, end: number, depth: number): AttributeValue[] {
  const values: AttributeValue[] = [];
  while (r.pos < end) {
    const tag = r.tag(end, 'ArrayValue');
    if (tag === F.LIST_VALUES) values.push(readAnyValue(r, r.lengthEnd(end), depth + 1));
    else r.skip(tag, end);
  }
  return values;
}

function newAttributes(): Attributes {
  return Object.create(null) as Attributes;
}

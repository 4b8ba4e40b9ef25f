import { AppError } from '../../lib/app-error';
import {
  ShapeError,
  arrayField,
  at,
  enumField,
  expect,
  field,
  idField,
  isObject,
  joinPath,
  keyValues,
  nanosField,
  stringField,
} from './json-values';
import type { Attributes, DecodedRequest, OtlpEvent, OtlpSpan, SpanOrigin } from './types';

const SPAN_KINDS = [
  'SPAN_KIND_UNSPECIFIED',
  'SPAN_KIND_INTERNAL',
  'SPAN_KIND_SERVER',
  'SPAN_KIND_CLIENT',
  'SPAN_KIND_PRODUCER',
  'SPAN_KIND_CONSUMER',
] as const;
const STATUS_CODES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'] as const;
const MAX_MESSAGES = 10;
// [field, proto name, scope field, its proto name]: current and deprecated (pre-1.0) groupings of spans.
const SCOPE_GROUPS = [
  ['scopeSpans', 'scope_spans', 'scope', 'scope'],
  [
    'instrumentationLibrarySpans',
    'instrumentation_library_spans',
    'instrumentationLibrary',
    'instrumentation_library',
  ],
] as const;

/**
 * Decodes an OTLP/JSON ExportTraceServiceRequest. Invalid JSON or a wrong structure above the spans throws
 * AppError('malformed_body'); a wrong type inside one span rejects only that span (see `rejected`).
 */
export function decodeJsonRequest(text: string): DecodedRequest {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new AppError(
      'malformed_body',
      `JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const state: DecodeState = { spans: [], origins: [], rejectedCount: 0, messages: [] };
  try {
    if (!isObject(root)) expect('', 'an ExportTraceServiceRequest object', root);
    const resourceSpans = arrayField(root, 'resourceSpans', 'resource_spans');
    for (let i = 0; i < resourceSpans.length; i++) {
      at(`resourceSpans[${i}]`, () =>
        readResourceSpans(resourceSpans[i], `resourceSpans[${i}]`, state),
      );
    }
  } catch (error) {
    if (error instanceof ShapeError) {
      const where = error.path === '' ? 'the body' : error.path;
      throw new AppError('malformed_body', `JSON: ${where} ${error.message}`);
    }
    // A decoder bug must still answer 400, not 500; the prefix lets tests catch it.
    throw new AppError('malformed_body', `JSON: undecodable body (${String(error)})`, {
      cause: error,
    });
  }
  const decoded: DecodedRequest = { spans: state.spans, origins: state.origins };
  if (state.rejectedCount > 0)
    decoded.rejected = { count: state.rejectedCount, messages: state.messages };
  return decoded;
}

interface DecodeState {
  spans: OtlpSpan[];
  origins: SpanOrigin[];
  rejectedCount: number;
  messages: string[];
}

function readResourceSpans(value: unknown, path: string, state: DecodeState): void {
  if (!isObject(value)) expect('', 'an object', value);
  const resource = Object.create(null) as Attributes;
  const resourceValue = field(value, 'resource', 'resource');
  if (resourceValue !== undefined) {
    if (!isObject(resourceValue)) expect('resource', 'an object', resourceValue);
    at('resource.attributes', () =>
      keyValues(arrayField(resourceValue, 'attributes', 'attributes'), resource, 0),
    );
  }
  for (const [camel, snake, scopeCamel, scopeSnake] of SCOPE_GROUPS) {
    const list = arrayField(value, camel, snake);
    for (let j = 0; j < list.length; j++) {
      const scopeSpans = list[j];
      const segment = `${camel}[${j}]`;
      if (!isObject(scopeSpans)) expect(segment, 'an object', scopeSpans);
      const scope = field(scopeSpans, scopeCamel, scopeSnake);
      if (scope !== undefined && !isObject(scope))
        expect(`${segment}.${scopeCamel}`, 'an object', scope);
      const scopeName =
        scope === undefined
          ? ''
          : at(`${segment}.${scopeCamel}`, () => stringField(scope, 'name', 'name'));
      const spans = at(segment, () => arrayField(scopeSpans, 'spans', 'spans'));
      readSpans(spans, joinPath(path, segment), resource, scopeName, state);
    }
  }
}

function readSpans(
  list: unknown[],
  path: string,
  resource: Attributes,
  scopeName: string,
  state: DecodeState,
): void {
  let needOrigin = true;
  for (let k = 0; k < list.length; k++) {
    let span: OtlpSpan;
    try {
      span = readSpan(list[k], resource, scopeName);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      state.rejectedCount++;
      if (state.messages.length < MAX_MESSAGES) {
        const where = error.path === '' ? '' : `${error.path} `;
        state.messages.push(`span ${k} of ${path}: ${where}${error.message}`);
      }
      needOrigin = true;
      continue;
    }
    if (needOrigin) state.origins.push({ path, firstSpan: state.spans.length, firstIndex: k });
    needOrigin = false;
    state.spans.push(span);
  }
}

function readSpan(value: unknown, resource: Attributes, scopeName: string): OtlpSpan {
  if (!isObject(value)) expect('', 'a Span object', value);
  const span: OtlpSpan = {
    traceId: idField(value, 'traceId', 'trace_id'),
    spanId: idField(value, 'spanId', 'span_id'),
    parentSpanId: idField(value, 'parentSpanId', 'parent_span_id'),
    name: stringField(value, 'name', 'name'),
    kind: enumField(value, 'kind', 'kind', SPAN_KINDS),
    startMs: nanosField(value, 'startTimeUnixNano', 'start_time_unix_nano'),
    endMs: nanosField(value, 'endTimeUnixNano', 'end_time_unix_nano'),
    attributes: Object.create(null) as Attributes,
    events: [],
    statusCode: 0,
    statusMessage: '',
    resource,
    scopeName,
  };
  at('attributes', () =>
    keyValues(arrayField(value, 'attributes', 'attributes'), span.attributes, 0),
  );
  const events = arrayField(value, 'events', 'events');
  for (let i = 0; i < events.length; i++)
    span.events.push(at(`events[${i}]`, () => readEvent(events[i])));
  const status = field(value, 'status', 'status');
  if (status !== undefined) {
    if (!isObject(status)) expect('status', 'an object', status);
    at('status', () => {
      span.statusCode = enumField(status, 'code', 'code', STATUS_CODES);
      span.statusMessage = stringField(status, 'message', 'message');
    });
  }
  return span;
}

function readEvent(value: unknown): OtlpEvent {
  if (!isObject(value)) expect('', 'an Event object', value);
  const event: OtlpEvent = {
    name: stringField(value, 'name', 'name'),
    timeMs: nanosField(value, 'timeUnixNano', 'time_unix_nano'),
    attributes: Object.create(null) as Attributes,
  };
  at('attributes', () =>
    keyValues(arrayField(value, 'attributes', 'attributes'), event.attributes, 0),
  );
  return event;
}

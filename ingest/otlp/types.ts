// The one shape both wire formats (protobuf and JSON) decode into. Everything after decode
// (validate, normalize, store) sees only this.

export type AttributeValue =
  string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

/** Always a null-prototype object, so keys such as `__proto__` are plain data. */
export type Attributes = Record<string, AttributeValue>;

export interface OtlpEvent {
  name: string;
  /** Unix time in milliseconds (fractional: microseconds survive). */
  timeMs: number;
  attributes: Attributes;
}

/** A span as decoded, before validation: ids are lowercase hex of whatever length was sent. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  /** Empty string when the span has no parent. */
  parentSpanId: string;
  name: string;
  kind: number;
  /** Unix time in milliseconds; 0 when the field was absent. */
  startMs: number;
  /** Unix time in milliseconds; 0 when the field was absent (span not ended yet). */
  endMs: number;
  attributes: Attributes;
  events: OtlpEvent[];
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  statusMessage: string;
  /** Resource attributes, shared by every span of one ResourceSpans. */
  resource: Attributes;
  scopeName: string;
}

export type OtlpFormat = 'protobuf' | 'json';

/** Where a run of decoded spans came from, so later stages can name a span as the sender sees it. */
export interface SpanOrigin {
  /** `spans[firstSpan]` onwards (until the next origin) sit in this scope, e.g. `resourceSpans[0].scopeSpans[1]`. */
  path: string;
  firstSpan: number;
  /** Index of `spans[firstSpan]` in the scope's span list as sent. */
  firstIndex: number;
}

export interface DecodedRequest {
  spans: OtlpSpan[];
  /** Spans the decoder could not read (a wrong type inside one span): `count` is exact, `messages` capped. */
  rejected?: { count: number; messages: string[] };
  /** In `spans` order; absent when the decoder did not record origins. */
  origins?: SpanOrigin[];
}

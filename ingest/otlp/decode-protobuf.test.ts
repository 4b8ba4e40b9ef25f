import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import { MAX_ANY_VALUE_DEPTH, decodeProtobufRequest } from './decode-protobuf';
import { concat, hexBytes, pb, unknownFields } from './fixtures/proto-bytes';
import type { OtlpSpan } from './types';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';
const PARENT = '00f067aa0ba902b7';

// KeyValue under `field` (Span.attributes 9, Resource.attributes 1, Event.attributes 3, KeyValueList.values 1).
const kv = (field: number, key: string, ...anyValue: Uint8Array[]) =>
  pb.message(field, pb.string(1, key), pb.message(2, ...anyValue));
const spanBytes = (...extra: Uint8Array[]) =>
  pb.message(
    2,
    pb.bytes(1, hexBytes(TRACE)),
    pb.bytes(2, hexBytes(SPAN)),
    pb.string(5, 'step 1'),
    pb.fixed64(7, 1_700_000_000_123_456_789n),
    ...extra,
  );
const request = (...scopeSpansParts: Uint8Array[]) =>
  pb.message(1, pb.message(2, ...scopeSpansParts));

function onlySpan(bytes: Uint8Array): OtlpSpan {
  const { spans } = decodeProtobufRequest(bytes);
  expect(spans).toHaveLength(1);
  return spans[0] as OtlpSpan;
}

function errorOf(bytes: Uint8Array): AppError {
  try {
    decodeProtobufRequest(bytes);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('decoded without error');
}

describe('decodeProtobufRequest', () => {
  it('reads every span field and turns fixed64 nanoseconds into fractional milliseconds', () => {
    const span = onlySpan(
      request(
        pb.message(1, pb.string(1, 'agent.tracer'), pb.string(2, '1.0')),
        spanBytes(
          pb.bytes(4, hexBytes(PARENT)),
          pb.varint(6, 3),
          pb.fixed64(8, 1_700_000_002_000_000_001n),
          pb.message(
            11,
            pb.fixed64(1, 1_700_000_001_000_000_500n),
            pb.string(2, 'exception'),
            kv(3, 'exception.type', pb.string(1, 'TimeoutError')),
          ),
          pb.message(15, pb.string(2, 'deadline exceeded'), pb.varint(3, 2)),
        ),
      ),
    );
    expect(span).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      parentSpanId: PARENT,
      name: 'step 1',
      kind: 3,
      startMs: 1_700_000_000_123 + 456_789 / 1e6,
      endMs: 1_700_000_002_000 + 1 / 1e6,
      statusCode: 2,
      statusMessage: 'deadline exceeded',
      scopeName: 'agent.tracer',
    });
    expect(Math.abs(span.startMs - 1_700_000_000_123.456789)).toBeLessThan(0.001);
    expect(span.events).toEqual([
      {
        name: 'exception',
        timeMs: 1_700_000_001_000.0005,
        attributes: { 'exception.type': 'TimeoutError' },
      },
    ]);
  });

  it('decodes every AnyValue kind, int64 as a number when safe and a decimal string when not', () => {
    const span = onlySpan(
      request(
        spanBytes(
          kv(9, 's', pb.string(1, 'text')),
          kv(9, 'yes', pb.varint(2, 1)),
          kv(9, 'no', pb.varint(2, 0)),
          kv(9, 'int', pb.varint(3, 42)),
          kv(9, 'negative', pb.varint(3, -5)),
          kv(9, 'max safe', pb.varint(3, Number.MAX_SAFE_INTEGER)),
          kv(9, 'min safe', pb.varint(3, -Number.MAX_SAFE_INTEGER)),
          kv(9, 'past safe', pb.varint(3, 2n ** 53n + 1n)),
          kv(9, 'int64 min', pb.varint(3, -(2n ** 63n))),
          kv(9, 'int64 max', pb.varint(3, 2n ** 63n - 1n)),
          kv(9, 'double', pb.double(4, 0.25)),
          kv(9, 'whole double', pb.double(4, 3)),
          kv(
            9,
            'array',
            pb.message(
              5,
              pb.message(1, pb.string(1, 'a')),
              pb.message(1, pb.varint(3, 7)),
              pb.message(1),
            ),
          ),
          kv(
            9,
            'map',
            pb.message(6, kv(1, 'inner', pb.message(6, kv(1, 'deep', pb.varint(2, 1))))),
          ),
          kv(9, 'bytes', pb.bytes(7, [0, 255, 16])),
          kv(9, 'empty'),
          kv(9, 'last wins', pb.string(1, 'first'), pb.varint(3, 9)),
        ),
      ),
    );
    expect(span.attributes).toEqual({
      s: 'text',
      yes: true,
      no: false,
      int: 42,
      negative: -5,
      'max safe': Number.MAX_SAFE_INTEGER,
      'min safe': -Number.MAX_SAFE_INTEGER,
      'past safe': '9007199254740993',
      'int64 min': '-9223372036854775808',
      'int64 max': '9223372036854775807',
      double: 0.25,
      'whole double': 3,
      array: ['a', 7, null],
      map: { inner: { deep: true } },
      bytes: 'AP8Q',
      empty: null,
      'last wins': 9,
    });
  });

  it('keeps `__proto__` as a plain key in null-prototype objects', () => {
    const span = onlySpan(
      request(spanBytes(kv(9, '__proto__', pb.message(6, kv(1, 'polluted', pb.varint(2, 1)))))),
    );
    expect(Object.getPrototypeOf(span.attributes)).toBeNull();
    expect(Object.keys(span.attributes)).toEqual(['__proto__']);
    expect(span.attributes['__proto__']).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shares one resource object across the spans of a ResourceSpans, whatever the field order', () => {
    const bytes = pb.message(
      1,
      pb.message(2, spanBytes(), spanBytes()),
      pb.message(1, kv(1, 'service.name', pb.string(1, 'research-agent'))),
      pb.message(
        2,
        pb.message(2, pb.bytes(1, hexBytes(TRACE))),
        pb.message(1, pb.string(1, 'late.scope')),
      ),
    );
    const { spans, origins } = decodeProtobufRequest(bytes);
    expect(spans.map((s) => s.resource['service.name'])).toEqual([
      'research-agent',
      'research-agent',
      'research-agent',
    ]);
    expect(spans[0]?.resource).toBe(spans[2]?.resource);
    expect(spans.map((s) => s.scopeName)).toEqual(['', '', 'late.scope']);
    expect(origins).toEqual([
      { path: 'resourceSpans[0].scopeSpans[0]', firstSpan: 0, firstIndex: 0 },
      { path: 'resourceSpans[0].scopeSpans[1]', firstSpan: 2, firstIndex: 0 },
    ]);
  });

  it('reads the deprecated instrumentation_library_spans (field 1000)', () => {
    const bytes = pb.message(
      1,
      pb.message(1000, pb.message(1, pb.string(1, 'old.library')), spanBytes()),
    );
    const { spans, origins } = decodeProtobufRequest(bytes);
    expect(spans.map((s) => [s.spanId, s.scopeName])).toEqual([[SPAN, 'old.library']]);
    expect(origins?.[0]?.path).toBe('resourceSpans[0].instrumentationLibrarySpans[0]');
  });

  it('skips unknown fields of every wire type at every level, and known fields sent with another wire type', () => {
    const bytes = concat(
      unknownFields(),
      pb.message(
        1,
        unknownFields(),
        pb.message(1, unknownFields(), kv(1, 'service.name', unknownFields(), pb.string(1, 'svc'))),
        pb.message(
          2,
          unknownFields(),
          spanBytes(
            unknownFields(),
            pb.varint(5, 1),
            pb.message(15, unknownFields(), pb.varint(3, 1)),
          ),
        ),
      ),
    );
    const span = onlySpan(bytes);
    expect(span).toMatchObject({ traceId: TRACE, spanId: SPAN, name: 'step 1', statusCode: 1 });
    expect(span.resource).toEqual({ 'service.name': 'svc' });
  });

  it('decodes keys right through the key cache: many distinct keys, repeats and non-ASCII keys', () => {
    const keys = Array.from({ length: 6000 }, (_, i) =>
      i % 3 === 0 ? `k\u00e9y.${i}` : `key.${i}`,
    );
    const attributes = keys.flatMap((key, i) => [
      kv(9, key, pb.varint(3, i)),
      kv(9, 'loop.step', pb.varint(3, i)),
    ]);
    const decoded = onlySpan(request(spanBytes(...attributes))).attributes;
    expect(Object.keys(decoded)).toHaveLength(6001);
    expect(keys.every((key, i) => decoded[key] === i)).toBe(true);
    expect(decoded['loop.step']).toBe(5999);
  });

  it('keeps ids as the hex of the bytes sent, whatever their length', () => {
    const span = onlySpan(request(pb.message(2, pb.bytes(1, [0xab, 0xcd, 0x01]), pb.bytes(2, []))));
    expect([span.traceId, span.spanId, span.parentSpanId]).toEqual(['abcd01', '', '']);
  });

  it('replaces invalid UTF-8 with U+FFFD', () => {
    const span = onlySpan(request(pb.message(2, pb.bytes(5, [0x6f, 0x6b, 0xff, 0xc3]))));
    expect(span.name).toBe('ok\uFFFD\uFFFD');
  });

  it('accepts an empty body and empty messages', () => {
    expect(decodeProtobufRequest(new Uint8Array(0))).toEqual({ spans: [], origins: [] });
    expect(decodeProtobufRequest(pb.message(1)).spans).toEqual([]);
  });

  it.each([
    [
      'a truncated length',
      [0x0a],
      'protobuf: field 1 of ExportTraceServiceRequest at byte 0: truncated varint',
    ],
    [
      'a length past the end',
      [0x0a, 0x05, 0x00],
      'protobuf: field 1 of ExportTraceServiceRequest at byte 0: length 5 runs past the end of the message',
    ],
    [
      'a group',
      [0x0b],
      'protobuf: field 1 of ExportTraceServiceRequest at byte 0: wire type 3 (group) is not supported',
    ],
    [
      'an end-group',
      [0x0c],
      'protobuf: field 1 of ExportTraceServiceRequest at byte 0: wire type 4 (group) is not supported',
    ],
    [
      'wire type 7',
      [0x0f],
      'protobuf: field 1 of ExportTraceServiceRequest at byte 0: invalid wire type 7',
    ],
    [
      'field number 0',
      [0x02, 0x00],
      'protobuf: ExportTraceServiceRequest at byte 0: field number 0 is invalid',
    ],
    [
      'an 11-byte varint',
      [0x08, ...new Array<number>(10).fill(0xff), 0x01],
      'protobuf: field 1 of ExportTraceServiceRequest at byte 0: varint longer than 10 bytes',
    ],
    ['a truncated tag', [0x80], 'protobuf: ExportTraceServiceRequest at byte 0: truncated varint'],
    [
      'a truncated fixed32',
      [0x0d, 1, 2],
      'protobuf: field 1 of ExportTraceServiceRequest at byte 0: 4-byte value runs past the end of the message',
    ],
  ])('rejects %s with a message naming field, message and byte', (_, bytes, message) => {
    const error = errorOf(Uint8Array.from(bytes));
    expect(error.code).toBe('malformed_body');
    expect(error.message).toBe(message);
  });

  it('bounds nested lengths by the enclosing message, not the buffer', () => {
    // ResourceSpans (at byte 0, 4 bytes long) holds a ScopeSpans claiming 10 bytes; the buffer has more.
    const bytes = concat([0x0a, 0x04, 0x12, 0x0a, 0x00, 0x00], new Uint8Array(20));
    expect(errorOf(bytes).message).toBe(
      'protobuf: field 2 of ResourceSpans at byte 2: length 10 runs past the end of the message',
    );
  });

  it('names the span field and offset of a truncated timestamp', () => {
    const bytes = request(
      pb.message(2, pb.bytes(1, hexBytes(TRACE)), Uint8Array.from([0x39, 1, 2, 3])),
    );
    expect(errorOf(bytes).message).toBe(
      'protobuf: field 7 of Span at byte 24: 8-byte value runs past the end of the message',
    );
  });

  it(`decodes AnyValue nested ${MAX_ANY_VALUE_DEPTH} levels deep and rejects one more`, () => {
    const nested = (levels: number): Uint8Array =>
      levels === 1 ? pb.string(1, 'leaf') : pb.message(5, pb.message(1, nested(levels - 1)));
    const deepest = onlySpan(request(spanBytes(kv(9, 'deep', nested(MAX_ANY_VALUE_DEPTH)))))
      .attributes['deep'];
    expect(JSON.stringify(deepest)).toBe(
      `${'['.repeat(MAX_ANY_VALUE_DEPTH - 1)}"leaf"${']'.repeat(MAX_ANY_VALUE_DEPTH - 1)}`,
    );
    const error = errorOf(request(spanBytes(kv(9, 'deep', nested(MAX_ANY_VALUE_DEPTH + 1)))));
    expect(error.message).toMatch(
      /^protobuf: field 1 of ArrayValue at byte \d+: AnyValue nested deeper than 32 levels$/,
    );
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import { decodeJsonRequest } from './decode-json';
import type { OtlpSpan } from './types';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

const body = (spans: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    resourceSpans: [
      { resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'tracer' }, spans }] },
    ],
    ...extra,
  });
const goodSpan = (overrides: Record<string, unknown> = {}) => ({
  traceId: TRACE,
  spanId: SPAN,
  name: 'step',
  startTimeUnixNano: '1700000000123456789',
  ...overrides,
});

function onlySpan(text: string): OtlpSpan {
  const decoded = decodeJsonRequest(text);
  expect(decoded.rejected).toBeUndefined();
  expect(decoded.spans).toHaveLength(1);
  return decoded.spans[0] as OtlpSpan;
}

function errorOf(text: string): AppError {
  try {
    decodeJsonRequest(text);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('decoded without error');
}

describe('decodeJsonRequest', () => {
  it('reads the OTLP/JSON mapping: hex ids, string int64, integer enums, lowerCamelCase keys', () => {
    const span = onlySpan(
      body([
        goodSpan({
          parentSpanId: '00F067AA0BA902B7',
          kind: 2,
          endTimeUnixNano: '1700000002000000001',
          attributes: [
            { key: 'tokens', value: { intValue: '1200' } },
            { key: 'big', value: { intValue: '9007199254740993' } },
            { key: 'ratio', value: { doubleValue: 0.5 } },
            { key: 'nan', value: { doubleValue: 'NaN' } },
            { key: 'ok', value: { boolValue: true } },
            { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, {}] } } },
            {
              key: 'map',
              value: { kvlistValue: { values: [{ key: 'k', value: { intValue: -3 } }] } },
            },
            { key: 'raw', value: { bytesValue: 'AP8Q' } },
            { key: 'unset' },
          ],
          events: [
            {
              timeUnixNano: '1700000001000000500',
              name: 'gen_ai.choice',
              attributes: [{ key: 'index', value: { intValue: 0 } }],
            },
          ],
          status: { code: 2, message: 'boom' },
          droppedAttributesCount: 0,
          links: [],
          flags: 257,
          someFutureField: { anything: true },
        }),
      ]),
    );
    expect(span).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      parentSpanId: '00f067aa0ba902b7',
      kind: 2,
      startMs: 1_700_000_000_123 + 456_789 / 1e6,
      endMs: 1_700_000_002_000 + 1 / 1e6,
      statusCode: 2,
      statusMessage: 'boom',
      scopeName: 'tracer',
    });
    expect(span.attributes).toEqual({
      tokens: 1200,
      big: '9007199254740993',
      ratio: 0.5,
      nan: NaN,
      ok: true,
      tags: ['a', null],
      map: { k: -3 },
      raw: 'AP8Q',
      unset: null,
    });
    expect(span.events).toEqual([
      { name: 'gen_ai.choice', timeMs: 1_700_000_001_000.0005, attributes: { index: 0 } },
    ]);
  });

  it('also accepts proto field names, enum names, base64 ids and int64 numbers', () => {
    const span = onlySpan(
      JSON.stringify({
        resource_spans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { string_value: 'svc' } }] },
            scope_spans: [
              {
                scope: { name: 'tracer' },
                spans: [
                  {
                    trace_id: Buffer.from(TRACE, 'hex').toString('base64'),
                    span_id: Buffer.from(SPAN, 'hex').toString('base64'),
                    parent_span_id: '',
                    kind: 'SPAN_KIND_CLIENT',
                    start_time_unix_nano: 1_700_000_000_000_000_000,
                    attributes: [{ key: 'n', value: { int_value: 7 } }],
                    status: { code: 'STATUS_CODE_ERROR' },
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(span).toMatchObject({
      traceId: TRACE,
      spanId: SPAN,
      parentSpanId: '',
      kind: 3,
      statusCode: 2,
      startMs: 1_700_000_000_000,
    });
    expect(span.attributes).toEqual({ n: 7 });
    expect(span.resource).toEqual({ 'service.name': 'svc' });
  });

  it('reads the legacy instrumentationLibrarySpans', () => {
    const text = JSON.stringify({
      resourceSpans: [
        {
          instrumentationLibrarySpans: [
            { instrumentationLibrary: { name: 'old' }, spans: [goodSpan()] },
          ],
        },
      ],
    });
    const decoded = decodeJsonRequest(text);
    expect(decoded.spans.map((s) => s.scopeName)).toEqual(['old']);
    expect(decoded.origins?.[0]?.path).toBe('resourceSpans[0].instrumentationLibrarySpans[0]');
  });

  it('keeps `__proto__` keys as data in null-prototype objects', () => {
    const span = onlySpan(
      body([
        goodSpan({
          attributes: [
            {
              key: '__proto__',
              value: { kvlistValue: { values: [{ key: 'polluted', value: { boolValue: true } }] } },
            },
          ],
        }),
      ]),
    );
    expect(Object.getPrototypeOf(span.attributes)).toBeNull();
    expect(span.attributes['__proto__']).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects only the span with a wrong type inside it, and says where', () => {
    const decoded = decodeJsonRequest(
      body([
        goodSpan({ spanId: '0000000000000001' }),
        goodSpan({
          attributes: [
            { key: 'ok', value: { stringValue: 'x' } },
            { key: 'n', value: { intValue: { $numberLong: '5' } } },
          ],
        }),
        goodSpan({ spanId: '0000000000000003' }),
        'not a span',
        goodSpan({ kind: 'SPAN_KIND_SIDEWAYS' }),
        goodSpan({ events: [{ timeUnixNano: true }] }),
        goodSpan({ spanId: '0000000000000007' }),
      ]),
    );
    expect(decoded.spans.map((s) => s.spanId)).toEqual([
      '0000000000000001',
      '0000000000000003',
      '0000000000000007',
    ]);
    expect(decoded.rejected).toEqual({
      count: 4,
      messages: [
        'span 1 of resourceSpans[0].scopeSpans[0]: attributes[1].value.intValue must be an int64 (a decimal string or an integer), got object',
        'span 3 of resourceSpans[0].scopeSpans[0]: must be a Span object, got string',
        'span 4 of resourceSpans[0].scopeSpans[0]: kind must be an enum integer or name, got "SPAN_KIND_SIDEWAYS"',
        'span 5 of resourceSpans[0].scopeSpans[0]: events[0].timeUnixNano must be unsigned nanoseconds (a decimal string or an integer), got boolean',
      ],
    });
    expect(decoded.origins).toEqual([
      { path: 'resourceSpans[0].scopeSpans[0]', firstSpan: 0, firstIndex: 0 },
      { path: 'resourceSpans[0].scopeSpans[0]', firstSpan: 1, firstIndex: 2 },
      { path: 'resourceSpans[0].scopeSpans[0]', firstSpan: 2, firstIndex: 6 },
    ]);
  });

  it('rejects a span whose attribute value is not an AnyValue object', () => {
    const decoded = decodeJsonRequest(
      body([goodSpan({ attributes: [{ key: 'x', value: 'plain' }] })]),
    );
    expect(decoded.rejected?.messages).toEqual([
      'span 0 of resourceSpans[0].scopeSpans[0]: attributes[0].value must be an AnyValue object, got string',
    ]);
  });

  it('keeps the rejected count exact but the messages few', () => {
    const decoded = decodeJsonRequest(
      body(Array.from({ length: 50 }, () => goodSpan({ name: 5 }))),
    );
    expect(decoded.spans).toEqual([]);
    expect(decoded.rejected?.count).toBe(50);
    expect(decoded.rejected?.messages).toHaveLength(10);
    expect(decoded.rejected?.messages[9]).toBe(
      'span 9 of resourceSpans[0].scopeSpans[0]: name must be a string, got number',
    );
  });

  it.each([
    ['[]', 'JSON: the body must be an ExportTraceServiceRequest object, got array'],
    ['{"resourceSpans":{}}', 'JSON: resourceSpans must be an array, got object'],
    ['{"resourceSpans":[7]}', 'JSON: resourceSpans[0] must be an object, got number'],
    [
      '{"resourceSpans":[{"scopeSpans":"x"}]}',
      'JSON: resourceSpans[0].scopeSpans must be an array, got string',
    ],
    [
      '{"resourceSpans":[{"scopeSpans":[{"spans":{}}]}]}',
      'JSON: resourceSpans[0].scopeSpans[0].spans must be an array, got object',
    ],
    [
      '{"resourceSpans":[{"scopeSpans":[{"scope":{"name":1}}]}]}',
      'JSON: resourceSpans[0].scopeSpans[0].scope.name must be a string, got number',
    ],
    [
      '{"resourceSpans":[{"resource":{"attributes":[{"key":"a","value":{"boolValue":"yes"}}]}}]}',
      'JSON: resourceSpans[0].resource.attributes[0].value.boolValue must be a boolean, got string',
    ],
  ])('rejects the whole request for a wrong structure above the spans: %s', (text, message) => {
    const error = errorOf(text);
    expect(error.code).toBe('malformed_body');
    expect(error.message).toBe(message);
  });

  it('rejects invalid JSON as malformed_body', () => {
    const error = errorOf('{"resourceSpans": [');
    expect(error.code).toBe('malformed_body');
    expect(error.message).toMatch(/^JSON: .*JSON/);
  });

  it('accepts an empty request', () => {
    expect(decodeJsonRequest('{}')).toEqual({ spans: [], origins: [] });
  });

  it('decodes the captured fixture with one broken span among good ones', () => {
    const text = readFileSync(
      new URL('./fixtures/malformed/one-broken-span.json', import.meta.url),
      'utf8',
    );
    const decoded = decodeJsonRequest(text);
    expect(decoded.spans).toHaveLength(9);
    expect(decoded.rejected).toEqual({
      count: 1,
      messages: [
        'span 4 of resourceSpans[0].scopeSpans[0]: attributes[1].value.intValue must be an int64 (a decimal string or an integer), got string',
      ],
    });
  });
});

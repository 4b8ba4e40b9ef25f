import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeJsonRequest } from './otlp/decode-json';
import { decodeProtobufRequest } from './otlp/decode-protobuf';
import type { Attributes, DecodedRequest, OtlpEvent, OtlpSpan } from './otlp/types';
import {
  DROPPED_ATTRIBUTES_KEY,
  DROPPED_EVENTS_KEY,
  LIMITS,
  cleanText,
  validateSpans,
} from './validate';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

const attrs = (entries: Record<string, unknown> = {}) =>
  Object.assign(Object.create(null) as Attributes, entries);
function span(overrides: Partial<OtlpSpan> = {}): OtlpSpan {
  return {
    traceId: TRACE,
    spanId: SPAN,
    parentSpanId: '',
    name: 'step 1',
    kind: 1,
    startMs: 1_700_000_000_000.5,
    endMs: 1_700_000_001_000,
    attributes: attrs(),
    events: [],
    statusCode: 0,
    statusMessage: '',
    resource: attrs({ 'service.name': 'agent' }),
    scopeName: 'tracer',
    ...overrides,
  };
}
const only = (decoded: DecodedRequest) => {
  const result = validateSpans(decoded);
  expect(result.rejectedCount).toBe(0);
  return result.spans[0];
};

describe('validateSpans: identity and time', () => {
  it('turns an empty or all-zero parent into null and a missing end into null', () => {
    expect(only({ spans: [span()] })).toMatchObject({
      parentSpanId: null,
      endMs: 1_700_000_001_000,
    });
    expect(only({ spans: [span({ parentSpanId: '0000000000000000', endMs: 0 })] })).toMatchObject({
      parentSpanId: null,
      endMs: null,
    });
    expect(only({ spans: [span({ parentSpanId: '00f067aa0ba902b7' })] })?.parentSpanId).toBe(
      '00f067aa0ba902b7',
    );
  });

  it.each([
    [{ traceId: TRACE.slice(0, 30) }, 'traceId must be 16 bytes (32 hex digits), got 15 bytes'],
    [{ traceId: '' }, 'traceId must be 16 bytes (32 hex digits), got none'],
    [{ traceId: '0'.repeat(32) }, 'traceId must not be all zeros'],
    [{ spanId: 'abcdef01' }, 'spanId must be 8 bytes (16 hex digits), got 4 bytes'],
    [{ spanId: '0'.repeat(16) }, 'spanId must not be all zeros'],
    [{ spanId: 'zz'.repeat(8) }, 'spanId is not hex'],
    [{ parentSpanId: '01' }, 'parentSpanId must be empty or 8 bytes (16 hex digits), got 1 byte'],
    [{ startMs: 0 }, 'startTimeUnixNano is missing'],
    [{ startMs: NaN }, 'startTimeUnixNano is not a finite time'],
  ])('rejects %o: %s', (overrides, problem) => {
    const result = validateSpans({
      spans: [span(), span(overrides)],
      origins: [{ path: 'resourceSpans[0].scopeSpans[1]', firstSpan: 0, firstIndex: 0 }],
    });
    expect(result.spans).toHaveLength(1);
    expect(result.rejectedCount).toBe(1);
    expect(result.messages).toEqual([`span 1 of resourceSpans[0].scopeSpans[1]: ${problem}`]);
  });

  it('names spans by their index as sent, across origins', () => {
    const result = validateSpans({
      spans: [span(), span(), span({ spanId: '' })],
      origins: [
        { path: 'resourceSpans[0].scopeSpans[0]', firstSpan: 0, firstIndex: 0 },
        { path: 'resourceSpans[1].scopeSpans[0]', firstSpan: 1, firstIndex: 4 },
      ],
    });
    expect(result.messages).toEqual([
      'span 5 of resourceSpans[1].scopeSpans[0]: spanId must be 8 bytes (16 hex digits), got none',
    ]);
  });

  it('adds the decoder rejections and caps the messages, never the count', () => {
    const spans = Array.from({ length: 30 }, () => span({ startMs: 0 }));
    const result = validateSpans({
      spans,
      rejected: { count: 7, messages: ['span 0 of x: decoder said so'] },
    });
    expect(result.rejectedCount).toBe(37);
    expect(result.messages).toHaveLength(LIMITS.messages);
    expect(result.messages[0]).toBe('span 0 of x: decoder said so');
    expect(result.messages[1]).toBe('span 0: startTimeUnixNano is missing');
  });

  it.each(['wrong-ids.json', 'wrong-ids.bin'])(
    'rejects exactly the four spans with bad ids in the %s fixture',
    (file) => {
      const bytes = readFileSync(new URL(`./otlp/fixtures/malformed/${file}`, import.meta.url));
      const decoded = file.endsWith('.json')
        ? decodeJsonRequest(bytes.toString('utf8'))
        : decodeProtobufRequest(bytes);
      const result = validateSpans(decoded);
      expect(result.spans).toHaveLength(6);
      expect(result.rejectedCount).toBe(4);
      expect(result.messages).toEqual([
        'span 0 of resourceSpans[0].scopeSpans[0]: traceId must be 16 bytes (32 hex digits), got 15 bytes',
        'span 1 of resourceSpans[0].scopeSpans[0]: spanId must be 8 bytes (16 hex digits), got 4 bytes',
        'span 2 of resourceSpans[0].scopeSpans[0]: parentSpanId must be empty or 8 bytes (16 hex digits), got 2 bytes',
        'span 3 of resourceSpans[0].scopeSpans[0]: traceId must not be all zeros',
      ]);
    },
  );
});

describe('validateSpans: safe for Postgres', () => {
  it('strips NUL from every string: names, keys, values, events, status, scope and resource', () => {
    const event: OtlpEvent = {
      name: 'ex\0ception',
      timeMs: 1,
      attributes: attrs({ 'k\0': 'v\0' }),
    };
    const valid = only({
      spans: [
        span({
          name: 'st\0ep',
          attributes: attrs({ 'a\0b': 'c\0d', list: ['x\0', { 'n\0': 'y\0' }], ok: 'fine' }),
          events: [event],
          statusMessage: 'bo\0om',
          scopeName: 'sc\0ope',
          resource: attrs({ 'service.name': 'ag\0ent' }),
        }),
      ],
    });
    expect(JSON.stringify(valid)).not.toContain('\\u0000');
    expect(valid).toMatchObject({ name: 'step', statusMessage: 'boom', scopeName: 'scope' });
    expect(valid?.attributes).toEqual({ ab: 'cd', list: ['x', { n: 'y' }], ok: 'fine' });
    expect(valid?.events).toEqual([{ name: 'exception', timeMs: 1, attributes: { k: 'v' } }]);
    expect(valid?.resource).toEqual({ 'service.name': 'agent' });
    expect(Object.getPrototypeOf(valid?.attributes)).toBeNull();
  });

  it('replaces unpaired surrogates (jsonb rejects them) and keeps pairs', () => {
    expect(cleanText('a\uD800b\uDC00c\uD83D\uDE00', Infinity)).toBe('a\uFFFDb\uFFFDc\uD83D\uDE00');
  });

  it('turns NaN and Infinity into strings, as jsonb has no such numbers', () => {
    expect(
      only({
        spans: [span({ attributes: attrs({ a: NaN, b: -Infinity, c: [Infinity], d: 1.5 }) })],
      })?.attributes,
    ).toEqual({ a: 'NaN', b: '-Infinity', c: ['Infinity'], d: 1.5 });
  });

  it('cuts string values over 16 KiB on a character boundary and says how much went', () => {
    const value = `${'x'.repeat(LIMITS.valueBytes - 1)}é${'y'.repeat(100_000)}`;
    const cut = only({
      spans: [span({ attributes: attrs({ big: value, nested: [value] }) })],
    })?.attributes;
    const expected = `${'x'.repeat(LIMITS.valueBytes - 1)}…[truncated 100002 bytes]`;
    expect(cut).toEqual({ big: expected, nested: [expected] });
    expect(cleanText('x'.repeat(LIMITS.valueBytes), LIMITS.valueBytes)).toBe(
      'x'.repeat(LIMITS.valueBytes),
    );
  });

  it('cuts span names over 1 KiB', () => {
    expect(only({ spans: [span({ name: 'n'.repeat(5000) })] })?.name).toBe(
      `${'n'.repeat(1024)}…[truncated 3976 bytes]`,
    );
  });

  it('caps events per span, keeping the first and last, and marks how many were dropped', () => {
    const events = Array.from({ length: 300 }, (_, i) => ({
      name: `e${i}`,
      timeMs: i,
      attributes: attrs(),
    }));
    const valid = only({ spans: [span({ events })] });
    expect(valid?.events).toHaveLength(LIMITS.eventsPerSpan);
    expect([
      valid?.events[0]?.name,
      valid?.events[63]?.name,
      valid?.events[64]?.name,
      valid?.events[127]?.name,
    ]).toEqual(['e0', 'e63', 'e236', 'e299']);
    expect(valid?.attributes[DROPPED_EVENTS_KEY]).toBe(172);
  });

  it('caps attributes per span, keeping loop.* and gen_ai.* first, and marks how many were dropped', () => {
    const many: Record<string, number> = {};
    for (let i = 0; i < 300; i++) many[`custom.${i}`] = i;
    const valid = only({
      spans: [
        span({ attributes: attrs({ ...many, 'loop.step': 3, 'gen_ai.usage.input_tokens': 10 }) }),
      ],
    });
    const keys = Object.keys(valid?.attributes ?? {});
    expect(keys).toHaveLength(LIMITS.attributesPerSpan + 1);
    expect(keys.slice(0, 2)).toEqual(['loop.step', 'gen_ai.usage.input_tokens']);
    expect(valid?.attributes['custom.253']).toBe(253);
    expect(valid?.attributes['custom.254']).toBeUndefined();
    expect(valid?.attributes[DROPPED_ATTRIBUTES_KEY]).toBe(46);
  });

  it('sanitizes a resource once and keeps it shared', () => {
    const resource = attrs({ 'service.name': 'a\0b' });
    const result = validateSpans({
      spans: [span({ resource }), span({ resource, spanId: '00f067aa0ba902b7' })],
    });
    expect(result.spans[0]?.resource).toBe(result.spans[1]?.resource);
    expect(result.spans[0]?.resource).toEqual({ 'service.name': 'ab' });
  });
});

describe('enum values outside the protocol', () => {
  it('are stored as unspecified rather than refused or overflowing a column', () => {
    const decoded = decodeJsonRequest(
      JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: '5b8efff798038103d269b633813fc60c',
                    spanId: 'eee19b7ec3c1b174',
                    name: 'x',
                    kind: 2147483647,
                    startTimeUnixNano: '1700000000000000000',
                    status: { code: -70000 },
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    const { spans, rejectedCount } = validateSpans(decoded);
    expect(rejectedCount).toBe(0);
    expect(spans[0]).toMatchObject({ kind: 0, statusCode: 0 });
  });
});

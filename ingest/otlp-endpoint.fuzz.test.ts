// Hostile input through the whole endpoint: whatever arrives, the answer is never a 5xx, the
// server stays up, and partial_success counts exactly the spans it refused.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../e2e/support/test-server';
import type { TestServer } from '../e2e/support/test-server';

describe('POST /v1/traces under hostile input', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { maxBodyBytes: 64 * 1024 });
  });
  afterAll(() => server?.close());

  const post = async (body: Uint8Array | string, contentType: string, gzip = false) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${server.key}`,
      'content-type': contentType,
    };
    const payload = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
    if (gzip) headers['content-encoding'] = 'gzip';
    const response = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers,
      body: gzip ? gzipSync(payload) : payload,
    });
    return { status: response.status, text: await response.text() };
  };

  it('random bytes as protobuf or JSON, plain or gzipped, never get a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom('application/x-protobuf', 'application/json'),
        fc.boolean(),
        async (bytes, type, gzip) => {
          const { status } = await post(bytes, type, gzip);
          expect([200, 400, 413]).toContain(status);
        },
      ),
      { numRuns: 150 },
    );
  });

  const hostileString = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      '<script>alert(1)</script>',
      '\u0000',
      '\ud800',
      'javascript:alert(1)',
    ),
  );
  const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    any: fc.oneof(
      { depthSize: 'small' },
      fc.record({ stringValue: hostileString }),
      fc.record({
        intValue: fc.oneof(fc.integer(), fc.constantFrom('9223372036854775807', '-1', 'x', '1e3')),
      }),
      fc.record({ doubleValue: fc.oneof(fc.double(), fc.constantFrom('NaN', 'Infinity')) }),
      fc.record({ boolValue: fc.oneof(fc.boolean(), fc.constant('yes')) }),
      fc.record({ arrayValue: fc.record({ values: fc.array(tie('any'), { maxLength: 3 }) }) }),
      fc.record({
        kvlistValue: fc.record({
          values: fc.array(fc.record({ key: hostileString, value: tie('any') }), { maxLength: 3 }),
        }),
      }),
      fc.constant(null),
      fc.constant('not an AnyValue'),
    ),
  })).any;
  const hexId = (bytes: number) =>
    fc.oneof(
      fc.stringMatching(new RegExp(`^[0-9a-f]{${bytes * 2}}$`)),
      fc.string({ maxLength: 40 }),
    );
  const span = fc.record(
    {
      traceId: hexId(16),
      spanId: hexId(8),
      parentSpanId: fc.oneof(hexId(8), fc.constant('')),
      name: hostileString,
      kind: fc.oneof(
        fc.integer({ min: -2, max: 9 }),
        fc.integer(),
        fc.constantFrom('SPAN_KIND_CLIENT', 'nope'),
      ),
      startTimeUnixNano: fc.oneof(
        fc.constant('1700000000000000000'),
        fc.constant('0'),
        fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String),
        fc.constant(-5),
      ),
      endTimeUnixNano: fc.oneof(fc.constant('1700000001000000000'), fc.constant(0)),
      attributes: fc.array(fc.record({ key: hostileString, value }), { maxLength: 6 }),
      status: fc.oneof(
        fc.record({
          code: fc.oneof(
            fc.integer({ min: 0, max: 3 }),
            fc.integer(),
            fc.constant('STATUS_CODE_ERROR'),
          ),
        }),
        fc.constant(7),
      ),
    },
    { requiredKeys: ['traceId', 'spanId'] },
  );

  it('random OTLP/JSON documents get 200 or 400, never a 5xx, and rejected counts stay within the batch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(span, { maxLength: 8 }), fc.boolean(), async (spans, gzip) => {
        const body = JSON.stringify({
          resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }],
        });
        const { status, text } = await post(body, 'application/json', gzip);
        expect([200, 400, 413]).toContain(status);
        if (status === 200 && text !== '{}') {
          const rejected = Number(
            (JSON.parse(text) as { partialSuccess: { rejectedSpans?: string } }).partialSuccess
              .rejectedSpans ?? 0,
          );
          expect(rejected).toBeGreaterThanOrEqual(0);
          expect(rejected).toBeLessThanOrEqual(spans.length);
        }
      }),
      { numRuns: 150 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('partial_success counts exactly the spans with broken ids or times', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('good', 'short-trace', 'zero-span', 'no-start'), {
          minLength: 1,
          maxLength: 12,
        }),
        async (kinds) => {
          const spans = kinds.map((kind, k) => ({
            traceId:
              kind === 'short-trace' ? 'abcd' : `${'f'.repeat(24)}${String(k).padStart(8, '0')}`,
            spanId: kind === 'zero-span' ? '0'.repeat(16) : `${String(k + 1).padStart(16, '0')}`,
            name: 'x',
            startTimeUnixNano: kind === 'no-start' ? '0' : '1700000000000000000',
            endTimeUnixNano: '1700000001000000000',
          }));
          const { status, text } = await post(
            JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }),
            'application/json',
          );
          expect(status).toBe(200);
          const bad = kinds.filter((k) => k !== 'good').length;
          const body = JSON.parse(text) as { partialSuccess?: { rejectedSpans?: string } };
          expect(Number(body.partialSuccess?.rejectedSpans ?? 0)).toBe(bad);
        },
      ),
      { numRuns: 40 },
    );
  });
});

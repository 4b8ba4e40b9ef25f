import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeOtlpBody, readOtlpRequest } from '../read-body';
import { emitAgentRun } from './fixtures/agent-run';
import type { FixtureManifest } from './fixtures/capture';
import { EXPORTER_VARIANTS, captureWithRealExporters, expectedSpan } from './fixtures/exporters';
import type { CapturedRequest, ExpectedSpan } from './fixtures/exporters';
import type { DecodedRequest, OtlpSpan } from './types';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);
const manifest = JSON.parse(readFileSync(fixture('manifest.json'), 'utf8')) as FixtureManifest;

async function decodeAsServed(
  body: Uint8Array,
  contentType: string,
  contentEncoding: string | null,
): Promise<DecodedRequest> {
  const headers = new Headers({ 'content-type': contentType });
  if (contentEncoding !== null) headers.set('content-encoding', contentEncoding);
  const request = new Request('http://localhost/v1/traces', {
    method: 'POST',
    headers,
    body: body as Uint8Array<ArrayBuffer>,
  });
  const { format, body: raw } = await readOtlpRequest(request, { maxBytes: 1024 * 1024 });
  return decodeOtlpBody(format, raw);
}

/** Exact content, with times allowed 1 µs of float error (the SDK's own ms are themselves rounded). */
function expectSpansMatch(decoded: OtlpSpan[], expected: ExpectedSpan[]): void {
  expect(decoded).toHaveLength(expected.length);
  const withoutTimes = (span: OtlpSpan | ExpectedSpan) => ({
    ...span,
    startMs: 0,
    endMs: 0,
    events: span.events.map((event) => ({ ...event, timeMs: 0 })),
  });
  decoded.forEach((span, i) => {
    const want = expected[i] as ExpectedSpan;
    expect(withoutTimes(span)).toEqual(withoutTimes(want));
    expect(Math.abs(span.startMs - want.startMs)).toBeLessThan(0.001);
    expect(Math.abs(span.endMs - want.endMs)).toBeLessThan(0.001);
    span.events.forEach((event, j) =>
      expect(Math.abs(event.timeMs - (want.events[j]?.timeMs ?? NaN))).toBeLessThan(0.001),
    );
  });
}

describe('captured fixtures from the real exporters', () => {
  it('were sent chunked, without Content-Length, in all four variants', () => {
    expect(
      manifest.files.map((f) => [f.variant, f.contentType, f.contentEncoding, f.transferEncoding]),
    ).toEqual([
      ['proto', 'application/x-protobuf', null, 'chunked'],
      ['proto-gzip', 'application/x-protobuf', 'gzip', 'chunked'],
      ['json', 'application/json', null, 'chunked'],
      ['json-gzip', 'application/json', 'gzip', 'chunked'],
    ]);
  });

  it.each(manifest.files)('$file decodes to exactly the spans the SDK emitted', async (file) => {
    const decoded = await decodeAsServed(
      readFileSync(fixture(file.file)),
      file.contentType,
      file.contentEncoding,
    );
    expect(decoded.rejected).toBeUndefined();
    expectSpansMatch(decoded.spans, manifest.spans);
  });

  it('hold the run as docs/conventions.md describes it', async () => {
    const { spans } = await decodeAsServed(
      readFileSync(fixture('agent-run.bin')),
      'application/x-protobuf',
      null,
    );
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const [root] = byName('invoke_agent research-agent');
    expect(root?.parentSpanId).toBe('');
    expect(root?.attributes).toMatchObject({
      'loop.run.id': 'run-7f3c2a91',
      'loop.limits.max_steps': 8,
      'loop.limits.max_usd': 0.5,
      'loop.tags': ['nightly', 'eval'],
      'loop.verified': false,
    });
    const steps = spans.filter((s) => s.attributes['loop.step'] !== undefined);
    expect(
      steps.map((s) => [
        s.attributes['loop.step'],
        s.attributes['loop.progress'],
        s.parentSpanId === root?.spanId,
      ]),
    ).toEqual([
      [1, 1, true],
      [2, 0.5, true],
      [3, 0.5, true],
    ]);
    const [failed] = byName('execute_tool fetch_url');
    expect([failed?.statusCode, failed?.statusMessage]).toEqual([2, 'fetch failed: 503']);
    expect(
      failed?.events.map((e) => [
        e.name,
        e.attributes['exception.type'],
        e.attributes['exception.message'],
      ]),
    ).toEqual([['exception', 'HttpError', 'fetch failed: 503 Service Unavailable']]);
    const chat = byName('chat gpt-4o-mini')[0];
    expect(chat?.attributes['gen_ai.request.options']).toEqual({
      max_tokens: 1024,
      stop: ['\n\n'],
      stream: false,
    });
    expect(byName('execute_tool web_search')[0]?.attributes['tool.result.raw']).toBe('AP8QgH8=');
    const step2 = byName('step 2')[0];
    expect(Object.getPrototypeOf(step2?.attributes)).toBeNull();
    expect(step2?.attributes['__proto__']).toBe('{"polluted":true}');
  });
});

describe('fresh payloads from the real exporters', () => {
  let sdkSpans: ExpectedSpan[];
  let captured: CapturedRequest[];

  beforeAll(async () => {
    const spans = await emitAgentRun();
    sdkSpans = spans.map(expectedSpan);
    captured = await captureWithRealExporters(spans);
  });

  it('come from all four exporter variants', () => {
    expect(captured.map((c) => [c.variant, c.contentEncoding])).toEqual(
      EXPORTER_VARIANTS.map((v) => [v, v.endsWith('gzip') ? 'gzip' : null]),
    );
  });

  it.each(EXPORTER_VARIANTS)(
    '%s decodes to the SDK span contexts, attributes, events, status and times',
    async (variant) => {
      const request = captured.find((c) => c.variant === variant) as CapturedRequest;
      const decoded = await decodeAsServed(
        request.body,
        request.contentType,
        request.contentEncoding,
      );
      expectSpansMatch(decoded.spans, sdkSpans);
    },
  );

  it('decode identically from protobuf and from JSON', async () => {
    const [proto, , json] = captured as [CapturedRequest, CapturedRequest, CapturedRequest];
    const fromProto = await decodeAsServed(proto.body, proto.contentType, null);
    const fromJson = await decodeAsServed(json.body, json.contentType, null);
    expect(fromProto.spans.length).toBe(10);
    expect(fromProto).toEqual(fromJson);
  });
});

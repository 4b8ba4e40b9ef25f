import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import { decodeJsonRequest } from './decode-json';
import { decodeProtobufRequest } from './decode-protobuf';
import { seededBytes } from './fixtures/capture';
import { loadOtlpTypes } from './fixtures/otlp-trace-proto';
import { pb } from './fixtures/proto-bytes';
import {
  expectedDecode,
  jsonStyleArbitrary,
  requestArbitrary,
  toJson,
  toProtobuf,
} from './fixtures/request-model';

const types = loadOtlpTypes();
const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);
const captured = new Uint8Array(readFileSync(fixture('agent-run.bin')));
const capturedJson = readFileSync(fixture('agent-run.json'), 'utf8');

/** Decoding either succeeds or fails as a 400 that names a real problem (never the internal fallback). */
function decodesOrRejects(decode: () => unknown): void {
  try {
    decode();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('malformed_body');
    expect((error as AppError).message).not.toContain('undecodable body');
  }
}

describe('protobuf decoder robustness', () => {
  it('never throws anything but malformed_body on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) =>
        decodesOrRejects(() => decodeProtobufRequest(bytes)),
      ),
      { numRuns: 2000 },
    );
  });

  it('decodes or rejects every truncation of a captured payload, and rejects the inner ones', () => {
    let rejected = 0;
    for (let length = 0; length < captured.length; length++) {
      decodesOrRejects(() => decodeProtobufRequest(captured.subarray(0, length)));
      try {
        decodeProtobufRequest(captured.subarray(0, length));
      } catch {
        rejected++;
      }
    }
    // The body is one ResourceSpans field: any cut after its 3-byte header and before the end is past its length.
    expect(rejected).toBe(captured.length - 1);
  });

  it('never throws anything but malformed_body on bit flips and splices of a captured payload', () => {
    const mutation = fc.record({
      at: fc.nat({ max: captured.length - 1 }),
      xor: fc.integer({ min: 1, max: 255 }),
      insert: fc.uint8Array({ maxLength: 8 }),
    });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        let bytes = Uint8Array.from(captured);
        for (const { at, xor, insert } of mutations) {
          const i = at % bytes.length;
          bytes[i] = (bytes[i] as number) ^ xor;
          bytes = Uint8Array.from([...bytes.subarray(0, at), ...insert, ...bytes.subarray(at)]);
        }
        decodesOrRejects(() => decodeProtobufRequest(bytes));
      }),
      { numRuns: 1500 },
    );
  });

  it('decodes strings exactly as a non-fatal TextDecoder does, invalid UTF-8 included', () => {
    const tricky = fc.constantFrom(
      0x41,
      0x80,
      0xbf,
      0xc0,
      0xc1,
      0xc3,
      0xe0,
      0xed,
      0xa0,
      0xf0,
      0xf4,
      0xf5,
      0x9f,
      0xff,
    );
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 80 }),
      fc.array(tricky, { maxLength: 40 }).map((a) => Uint8Array.from(a)),
    );
    fc.assert(
      fc.property(bytes, (name) => {
        const decoded = decodeProtobufRequest(
          pb.message(1, pb.message(2, pb.message(2, pb.bytes(5, name)))),
        );
        expect(decoded.spans[0]?.name).toBe(new TextDecoder().decode(name));
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects the seeded random fixture', () => {
    expect(Array.from(readFileSync(fixture('malformed/random.bin')))).toEqual(
      Array.from(seededBytes(256, 0x5eed)),
    );
    expect(() => decodeProtobufRequest(seededBytes(256, 0x5eed))).toThrow(
      /^protobuf: .* at byte \d+: /,
    );
  });

  it('rejects the truncated fixture naming the field that runs past the end', () => {
    expect(() => decodeProtobufRequest(readFileSync(fixture('malformed/truncated.bin')))).toThrow(
      /^protobuf: field 1 of ExportTraceServiceRequest at byte 0: length \d+ runs past the end of the message$/,
    );
  });
});

describe('JSON decoder robustness', () => {
  it('never throws anything but malformed_body on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) =>
        decodesOrRejects(() => decodeJsonRequest(JSON.stringify(value))),
      ),
      { numRuns: 1500 },
    );
  });

  it('never throws anything but malformed_body on arbitrary values in every slot of the request shape', () => {
    const few = { maxLength: 3 } as const;
    const junk = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constant({ __proto__: null }),
      fc.constant('{"__proto__":1}'),
    );
    const valueKeys = fc.constantFrom(
      'intValue',
      'arrayValue',
      'kvlistValue',
      'bytesValue',
      'doubleValue',
      'stringValue',
    );
    const kv = fc.record(
      { key: junk, value: fc.oneof(junk, fc.dictionary(valueKeys, junk, { maxKeys: 3 })) },
      { requiredKeys: [] },
    );
    const kvs = fc.oneof(junk, fc.array(kv, few));
    const event = fc.record(
      { timeUnixNano: junk, name: junk, attributes: kvs },
      { requiredKeys: [] },
    );
    const spanShape = fc.record(
      {
        traceId: junk,
        spanId: junk,
        kind: junk,
        startTimeUnixNano: junk,
        attributes: kvs,
        events: fc.oneof(junk, fc.array(event, few)),
        status: junk,
      },
      { requiredKeys: [] },
    );
    const scopeSpans = fc.record(
      { scope: junk, spans: fc.oneof(junk, fc.array(spanShape, few)) },
      { requiredKeys: [] },
    );
    const resourceSpans = fc.record(
      {
        resource: fc.oneof(junk, fc.record({ attributes: kvs })),
        scopeSpans: fc.oneof(junk, fc.array(scopeSpans, few)),
      },
      { requiredKeys: [] },
    );
    const request = fc.record({ resourceSpans: fc.oneof(junk, fc.array(resourceSpans, few)) });
    fc.assert(
      fc.property(request, (value) =>
        decodesOrRejects(() => decodeJsonRequest(JSON.stringify(value))),
      ),
      { numRuns: 1500 },
    );
  });

  it('never throws anything but malformed_body on truncations of a captured payload', () => {
    fc.assert(
      fc.property(fc.nat({ max: capturedJson.length }), (length) =>
        decodesOrRejects(() => decodeJsonRequest(capturedJson.slice(0, length))),
      ),
    );
  });
});

describe('both decoders against an independent model', () => {
  it('decode(protobuf) and decode(JSON, in any exporter style) both equal what the model says', () => {
    fc.assert(
      fc.property(requestArbitrary, jsonStyleArbitrary, (model, style) => {
        const expected = expectedDecode(model);
        const fromProtobuf = decodeProtobufRequest(toProtobuf(model, types));
        const fromJson = decodeJsonRequest(toJson(model, style));
        expect(fromProtobuf).toEqual(expected);
        expect(fromJson).toEqual(expected);
        expect(fromJson).toEqual(fromProtobuf);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with protobufjs on the captured payload', () => {
    const reference = types.request.toObject(types.request.decode(captured), {
      longs: String,
      bytes: String,
    }) as {
      resourceSpans: {
        scopeSpans: {
          spans: { traceId: string; spanId: string; name: string; startTimeUnixNano: string }[];
        }[];
      }[];
    };
    const spans = reference.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const ours = decodeProtobufRequest(captured).spans;
    expect(ours.map((s) => [s.traceId, s.spanId, s.name])).toEqual(
      spans.map((s) => [
        Buffer.from(s.traceId, 'base64').toString('hex'),
        Buffer.from(s.spanId, 'base64').toString('hex'),
        s.name,
      ]),
    );
    const ns = BigInt(spans[0]?.startTimeUnixNano ?? '0');
    expect(ours[0]?.startMs).toBe(Number(ns / 1_000_000n) + Number(ns % 1_000_000n) / 1e6);
  });
});

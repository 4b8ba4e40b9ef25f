import { describe, expect, it } from 'vitest';
import {
  OTLP_CONTENT_TYPE,
  encodeErrorBody,
  encodeExportResponse,
  rejectionMessage,
} from './encode-response';
import { loadOtlpTypes } from './fixtures/otlp-trace-proto';

const types = loadOtlpTypes();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('encodeExportResponse', () => {
  it('leaves partial_success unset on full success', () => {
    expect(encodeExportResponse('protobuf')).toEqual(new Uint8Array(0));
    expect(encodeExportResponse('protobuf', { rejectedSpans: 0, errorMessage: '' })).toEqual(
      new Uint8Array(0),
    );
    expect(text(encodeExportResponse('json'))).toBe('{}');
    expect(text(encodeExportResponse('json', { rejectedSpans: 0, errorMessage: '' }))).toBe('{}');
  });

  it('encodes a partial success that protobufjs reads back', () => {
    const message =
      'span 3 of resourceSpans[0].scopeSpans[0]: traceId must be 16 bytes (32 hex digits), got 15 bytes — ünïcode';
    const bytes = encodeExportResponse('protobuf', { rejectedSpans: 300, errorMessage: message });
    const decoded = types.response.toObject(types.response.decode(bytes), { longs: Number });
    expect(decoded).toEqual({ partialSuccess: { rejectedSpans: 300, errorMessage: message } });
  });

  it('encodes a warning with nothing rejected (rejected_spans 0, message set)', () => {
    const bytes = encodeExportResponse('protobuf', {
      rejectedSpans: 0,
      errorMessage: 'truncated 2 attribute values',
    });
    expect(Array.from(bytes.subarray(0, 4))).toEqual([0x0a, 30, 0x12, 28]);
    expect(text(encodeExportResponse('json', { rejectedSpans: 0, errorMessage: 'w' }))).toBe(
      '{"partialSuccess":{"errorMessage":"w"}}',
    );
  });

  it('writes JSON int64 as a string, as the proto3 JSON mapping says', () => {
    expect(
      JSON.parse(text(encodeExportResponse('json', { rejectedSpans: 3, errorMessage: 'x' }))),
    ).toEqual({
      partialSuccess: { rejectedSpans: '3', errorMessage: 'x' },
    });
  });
});

describe('encodeErrorBody', () => {
  it('is a google.rpc.Status in protobuf', () => {
    const bytes = encodeErrorBody(
      'protobuf',
      'malformed_body',
      'protobuf: field 5 of Span at byte 12: truncated varint',
    );
    expect(types.rpcStatus.toObject(types.rpcStatus.decode(bytes))).toEqual({
      code: 3,
      message: 'protobuf: field 5 of Span at byte 12: truncated varint',
    });
    expect(
      types.rpcStatus.toObject(
        types.rpcStatus.decode(encodeErrorBody('protobuf', 'unavailable', 'db down')),
      ),
    ).toEqual({ code: 14, message: 'db down' });
  });

  it('is the same Status in JSON, with the API error object beside it', () => {
    expect(JSON.parse(text(encodeErrorBody('json', 'rate_limited', 'slow down')))).toEqual({
      code: 8,
      message: 'slow down',
      error: { code: 'rate_limited', message: 'slow down' },
    });
    expect(JSON.parse(text(encodeErrorBody('json', 'unauthorized', 'no key')))).toEqual({
      code: 16,
      message: 'no key',
      error: { code: 'unauthorized', message: 'no key' },
    });
  });

  it('names the content type of each format', () => {
    expect(OTLP_CONTENT_TYPE).toEqual({
      protobuf: 'application/x-protobuf',
      json: 'application/json',
    });
  });
});

describe('rejectionMessage', () => {
  it('joins the kept messages and says how many were left out', () => {
    expect(rejectionMessage(0, [])).toBe('');
    expect(rejectionMessage(1, ['span 0 of a: bad'])).toBe('rejected 1 span: span 0 of a: bad');
    expect(rejectionMessage(12, ['x', 'y'])).toBe('rejected 12 spans: x; y; and 10 more');
    expect(rejectionMessage(4, [])).toBe('rejected 4 spans');
  });
});

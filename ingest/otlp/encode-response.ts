import type { AppErrorCode } from '../../lib/app-error';
import type { OtlpFormat } from './types';

export const OTLP_CONTENT_TYPE: Record<OtlpFormat, string> = {
  protobuf: 'application/x-protobuf',
  json: 'application/json',
};

export interface PartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/**
 * ExportTraceServiceResponse. The OTLP spec says to leave `partial_success` unset on full success, so
 * with nothing rejected and no message the body is empty (protobuf) or `{}` (JSON).
 */
export function encodeExportResponse(format: OtlpFormat, partial?: PartialSuccess): Uint8Array {
  const set = partial !== undefined && (partial.rejectedSpans > 0 || partial.errorMessage !== '');
  if (format === 'json') {
    if (!set) return textBytes('{}');
    const body: { rejectedSpans?: string; errorMessage?: string } = {};
    if (partial.rejectedSpans > 0) body.rejectedSpans = String(partial.rejectedSpans);
    if (partial.errorMessage !== '') body.errorMessage = partial.errorMessage;
    return textBytes(JSON.stringify({ partialSuccess: body }));
  }
  if (!set) return new Uint8Array(0);
  // ExportTracePartialSuccess: rejected_spans int64 = 1, error_message string = 2.
  const inner = new ProtoWriter();
  if (partial.rejectedSpans > 0) inner.varintField(1, partial.rejectedSpans);
  if (partial.errorMessage !== '') inner.bytesField(2, textBytes(partial.errorMessage));
  // ExportTraceServiceResponse: partial_success = 1.
  return new ProtoWriter().bytesField(1, inner.finish()).finish();
}

// google.rpc.Status codes: the status of an OTLP/gRPC answer, and the `code` of an OTLP/HTTP error
// body (where clients do not act on it, but it should not contradict the HTTP status). A request
// too large is RESOURCE_EXHAUSTED as gRPC's own message limit answers it; without retry info, so
// clients drop it rather than send it again.
export const GRPC_CODE: Record<AppErrorCode, number> = {
  bad_request: 3, // INVALID_ARGUMENT
  malformed_body: 3,
  payload_too_large: 8, // RESOURCE_EXHAUSTED
  unsupported_media_type: 3,
  unauthorized: 16, // UNAUTHENTICATED
  forbidden: 7, // PERMISSION_DENIED
  not_found: 5, // NOT_FOUND
  conflict: 10, // ABORTED
  request_timeout: 4, // DEADLINE_EXCEEDED
  misdirected: 7,
  rate_limited: 8, // RESOURCE_EXHAUSTED
  unavailable: 14, // UNAVAILABLE
  internal: 13, // INTERNAL
};

/**
 * The body of a 4xx/5xx answer to an OTLP request: the OTLP spec says a google.rpc.Status
 * (code = 1, message = 2), in the request's content type. In JSON it also carries Loopscope's
 * `{ "error": { code, message } }` (docs/api.md); Status readers ignore the extra field.
 */
export function encodeErrorBody(
  format: OtlpFormat,
  code: AppErrorCode,
  message: string,
): Uint8Array {
  const grpcCode = GRPC_CODE[code];
  if (format === 'json') {
    return textBytes(JSON.stringify({ code: grpcCode, message, error: { code, message } }));
  }
  return encodeRpcStatus(grpcCode, message);
}

/**
 * A google.rpc.Status (code = 1, message = 2, details = 3), with a google.rpc.RetryInfo detail
 * when the client should come back after `retryAfterSeconds`: what OTLP/gRPC clients read from
 * the `grpc-status-details-bin` trailer to know a RESOURCE_EXHAUSTED is worth retrying.
 */
export function encodeRpcStatus(
  grpcCode: number,
  message: string,
  retryAfterSeconds?: number,
): Uint8Array {
  const writer = new ProtoWriter().varintField(1, grpcCode);
  if (message !== '') writer.bytesField(2, textBytes(message));
  if (retryAfterSeconds !== undefined) {
    // RetryInfo { retry_delay = 1: Duration { seconds = 1 } } inside Any { type_url = 1, value = 2 }.
    const delay = new ProtoWriter().varintField(1, Math.max(0, Math.ceil(retryAfterSeconds)));
    const retryInfo = new ProtoWriter().bytesField(1, delay.finish());
    const any = new ProtoWriter()
      .bytesField(1, textBytes(RETRY_INFO_TYPE))
      .bytesField(2, retryInfo.finish());
    writer.bytesField(3, any.finish());
  }
  return writer.finish();
}

export const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

/** The `errorMessage` of a partial success: the messages kept, and how many were left out. */
export function rejectionMessage(rejectedCount: number, messages: readonly string[]): string {
  if (rejectedCount === 0) return '';
  const more = rejectedCount - messages.length;
  const head = `rejected ${rejectedCount} span${rejectedCount === 1 ? '' : 's'}`;
  const tail = more > 0 && messages.length > 0 ? `; and ${more} more` : '';
  return messages.length === 0 ? head : `${head}: ${messages.join('; ')}${tail}`;
}

const encoder = new TextEncoder();

function textBytes(text: string): Uint8Array {
  return encoder.encode(text);
}

class ProtoWriter {
  private readonly parts: number[] = [];
  private readonly chunks: Uint8Array[] = [];

  varintField(field: number, value: number): this {
    this.varint(field * 8);
    this.varint(value);
    return this;
  }

  bytesField(field: number, bytes: Uint8Array): this {
    this.varint(field * 8 + 2);
    this.varint(bytes.length);
    this.flush();
    this.chunks.push(bytes);
    return this;
  }

  finish(): Uint8Array {
    this.flush();
    const out = new Uint8Array(this.chunks.reduce((n, c) => n + c.length, 0));
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  private varint(value: number): void {
    let v = value;
    while (v >= 0x80) {
      this.parts.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.parts.push(v);
  }

  private flush(): void {
    if (this.parts.length > 0) this.chunks.push(Uint8Array.from(this.parts.splice(0)));
  }
}

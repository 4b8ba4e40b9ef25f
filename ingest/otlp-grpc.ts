// OTLP over gRPC: `TraceService/Export`, the gRPC adapter of `exportTraces`. gRPC itself frames,
// decompresses (gzip) and bounds the message; this reads the key from the `authorization`
// metadata, hands the message to the same export core as POST /v1/traces, and answers its
// outcome as the OTLP spec maps them onto gRPC status codes.
import { Metadata } from '@grpc/grpc-js';
import type {
  status,
  sendUnaryData,
  ServerUnaryCall,
  ServiceDefinition,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { describeError, toAppError } from '../db/errors';
import { keyFromAuthorization } from '../lib/door/api-key';
import type { AppError } from '../lib/app-error';
import { exportTraces } from './export-traces';
import { encodeExportResponse, encodeRpcStatus, GRPC_CODE } from './otlp/encode-response';
import type { OtlpEndpointDeps } from './otlp-endpoint';

export const TRACE_EXPORT_PATH = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';

// Messages pass as bytes: the protobuf decoder of ingest/otlp/ reads them, as it reads HTTP bodies.
const bytes = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength);

export const TRACE_SERVICE: ServiceDefinition = {
  export: {
    path: TRACE_EXPORT_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: bytes,
    requestDeserialize: (value: Buffer) => value,
    responseSerialize: bytes,
    responseDeserialize: (value: Buffer) => value,
    originalName: 'Export',
  },
};

/** The service's handlers; `deps` is asked per call (the runtime's database may change). */
export function traceServiceHandlers(deps: () => OtlpEndpointDeps): UntypedServiceImplementation {
  return {
    export: (call: ServerUnaryCall<Buffer, Uint8Array>, callback: sendUnaryData<Uint8Array>) => {
      handleExport(call.request, call.metadata, deps).then(
        (response) => callback(null, response),
        (error: unknown) => callback(grpcError(error, deps)),
      );
    },
  };
}

async function handleExport(
  message: Buffer,
  metadata: Metadata,
  deps: () => OtlpEndpointDeps,
): Promise<Uint8Array> {
  const result = await exportTraces(
    {
      key: keyFromMetadata(metadata),
      format: 'protobuf',
      // gRPC has already taken the message off the wire and out of its compression.
      gzipped: false,
      declaredBytes: message.byteLength,
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          if (message.byteLength > 0) controller.enqueue(new Uint8Array(message));
          controller.close();
        },
      }),
    },
    deps(),
  );
  return encodeExportResponse('protobuf', result);
}

function keyFromMetadata(metadata: Metadata): string | null {
  const authorization = metadata.get('authorization')[0];
  if (typeof authorization === 'string') return keyFromAuthorization(authorization);
  const apiKey = metadata.get('x-api-key')[0];
  return typeof apiKey === 'string' ? apiKey.trim() || null : null;
}

function grpcError(error: unknown, deps: () => OtlpEndpointDeps) {
  const appError = toAppError(
    error,
    (unexpected) => {
      try {
        deps().log?.(`ingest over gRPC failed: ${describeError(unexpected, { stack: true })}`);
      } catch {
        // no runtime to log to
      }
    },
    'ingest',
  );
  const code = GRPC_CODE[appError.code] as status;
  const metadata = new Metadata();
  // RetryInfo tells a client that RESOURCE_EXHAUSTED (otherwise final) and UNAVAILABLE are worth
  // sending again, and when.
  const retryAfter = retryDelay(appError);
  if (retryAfter !== undefined) {
    metadata.set(
      'grpc-status-details-bin',
      Buffer.from(encodeRpcStatus(code, appError.message, retryAfter)),
    );
  }
  return { code, details: appError.message, metadata };
}

function retryDelay(error: AppError): number | undefined {
  if (error.code !== 'rate_limited' && error.code !== 'unavailable') return undefined;
  return error.retryAfterSeconds ?? 1;
}

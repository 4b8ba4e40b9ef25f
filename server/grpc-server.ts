// The OTLP/gRPC listener beside the HTTP server: one grpc-js server with the trace service, its
// message limit the same as the HTTP body limit (checked after decompression too).
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { TRACE_SERVICE, traceServiceHandlers } from '../ingest/otlp-grpc';
import type { OtlpEndpointDeps } from '../ingest/otlp-endpoint';

export interface GrpcListener {
  port: number;
  close(): Promise<void>;
}

export async function listenGrpc(
  options: { host: string; port: number; maxBodyBytes: number },
  deps: () => OtlpEndpointDeps,
): Promise<GrpcListener> {
  const server = new Server({
    'grpc.max_receive_message_length': options.maxBodyBytes,
    // Calls at once on one connection; admission (ingest/admission.ts) still bounds the work.
    'grpc.max_concurrent_streams': 100,
  });
  server.addService(TRACE_SERVICE, traceServiceHandlers(deps));
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(
      `${host}:${options.port}`,
      ServerCredentials.createInsecure(),
      (error, bound) => (error ? reject(error) : resolve(bound)),
    ),
  );
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // Calls in flight finish (their spans are committed or refused); then the rest is cut.
        const timer = setTimeout(() => server.forceShutdown(), 5_000);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

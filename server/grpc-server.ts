// The OTLP/gRPC listener beside the HTTP server: an HTTP/2 (cleartext) server whose calls go
// through the same door as POST /v1/traces (ingest/otlp-grpc.ts). Around it, what only a
// connection-level listener can bound: connections and calls per client address, a connection
// that says nothing, and HTTP/2's own flow control, which leaves an unread message on the wire.
import { constants as h2, createServer } from 'node:http2';
import type { Http2Session, ServerHttp2Stream } from 'node:http2';
import { GRPC_STATUS, refuse, serveGrpcExport } from '../ingest/otlp-grpc';
import type { OtlpEndpointDeps } from '../ingest/otlp-endpoint';

export interface GrpcListener {
  port: number;
  /** Connections open and calls in flight, over every address. */
  state(): { connections: number; calls: number };
  close(): Promise<void>;
}

export interface GrpcDoorLimits {
  /** Connections one client address may hold open; past it, the connection is refused. */
  connectionsPerAddress: number;
  /** Calls one client address may have in flight across its connections. */
  callsPerAddress: number;
  /** Calls in flight on one connection (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS). */
  callsPerConnection: number;
  /** A connection with no call in flight is closed after this long. */
  idleMs: number;
}

export const DEFAULT_GRPC_LIMITS: GrpcDoorLimits = {
  connectionsPerAddress: 32,
  callsPerAddress: 128,
  callsPerConnection: 100,
  idleMs: 5 * 60_000,
};

// What a refused call is told to wait before trying again.
const RETRY_AFTER_SECONDS = 1;
// A connection refused for its address is told so on its first call, then closed.
const REFUSED_CONNECTION_GRACE_MS = 1000;
// HTTP/2's default window: what a peer may send on a call, and on a connection, before the server
// reads it. It is what an unread message can cost: a call holds at most this much unread.
const FLOW_WINDOW_BYTES = 65_535;

export async function listenGrpc(
  options: {
    host: string;
    port: number;
    maxBodyBytes: number;
    limits?: Partial<GrpcDoorLimits>;
  },
  deps: () => OtlpEndpointDeps,
): Promise<GrpcListener> {
  const limits = { ...DEFAULT_GRPC_LIMITS, ...options.limits };
  const connections = new Map<string, number>();
  const calls = new Map<string, number>();
  const refusedSessions = new WeakSet<Http2Session>();
  const sessions = new Set<Http2Session>();
  const inFlight = new Set<Promise<void>>();

  const server = createServer({
    settings: {
      maxConcurrentStreams: limits.callsPerConnection,
      initialWindowSize: FLOW_WINDOW_BYTES,
      // Metadata is a few small headers; a flood of them is refused by nghttp2 itself.
      maxHeaderListSize: 64 * 1024,
    },
    // Frames nghttp2 may hold for one connection beyond what the calls read, MiB.
    maxSessionMemory: 4,
    // A peer that does not speak HTTP/2 is cut after this long.
    unknownProtocolTimeout: 5_000,
  });

  server.on('session', (session) => {
    const address = session.socket?.remoteAddress ?? 'unknown';
    sessions.add(session);
    const open = (connections.get(address) ?? 0) + 1;
    connections.set(address, open);
    // Counted off, and closed, as soon as its socket is done with.
    let counted = true;
    const gone = () => {
      if (!counted) return;
      counted = false;
      sessions.delete(session);
      bump(connections, address, -1);
      if (!session.destroyed) session.destroy();
    };
    session.once('close', gone);
    session.socket?.once('close', gone);
    // A peer that ends its side of the connection sends nothing more: HTTP/2 has no half-close.
    session.socket?.once('end', gone);
    session.on('error', () => {});
    session.setTimeout(limits.idleMs, () => session.close());
    if (open > limits.connectionsPerAddress) {
      refusedSessions.add(session);
      setTimeout(() => session.destroy(), REFUSED_CONNECTION_GRACE_MS).unref();
    }
  });

  server.on('stream', (stream: ServerHttp2Stream, headers) => {
    stream.on('error', () => {});
    const session = stream.session;
    const address = session?.socket?.remoteAddress ?? 'unknown';
    if (session && refusedSessions.has(session)) {
      refuse(stream, {
        code: GRPC_STATUS.RESOURCE_EXHAUSTED,
        message: `more than ${limits.connectionsPerAddress} connections from one address: send over fewer`,
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
      session.close();
      return;
    }
    if ((calls.get(address) ?? 0) >= limits.callsPerAddress) {
      refuse(stream, {
        code: GRPC_STATUS.RESOURCE_EXHAUSTED,
        message: `more than ${limits.callsPerAddress} calls at once from one address: retry later`,
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
      return;
    }
    bump(calls, address, 1);
    const served = serveGrpcExport(stream, headers, deps, options.maxBodyBytes).finally(() => {
      bump(calls, address, -1);
      inFlight.delete(served);
    });
    inFlight.add(served);
  });

  const host = options.host.includes(':') ? options.host.replace(/^\[|\]$/g, '') : options.host;
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : options.port);
    });
  });
  const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
  return {
    port,
    state: () => ({ connections: total(connections), calls: total(calls) }),
    close: async () => {
      server.close();
      // Calls in flight finish (their spans are committed or refused); then the rest is cut.
      for (const session of sessions) session.close();
      const cut = setTimeout(() => {
        for (const session of sessions) session.destroy(undefined, h2.NGHTTP2_CANCEL);
      }, 5_000);
      await Promise.allSettled([...inFlight]);
      clearTimeout(cut);
      for (const session of sessions) session.destroy();
    },
  };
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}

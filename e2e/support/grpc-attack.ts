// A client of the gRPC port that behaves as an attacker does: raw HTTP/2 calls that announce a
// large message and never finish it, on connections whose sockets the caller can cut.
import { connect } from 'node:http2';
import type { ClientHttp2Session, ClientHttp2Stream } from 'node:http2';
import { connect as netConnect } from 'node:net';
import { RETRY_INFO_TYPE } from '../../ingest/otlp/encode-response';
import { TRACE_EXPORT_PATH } from '../../ingest/otlp-grpc';

export interface CallEnd {
  status: number | null;
  message: string;
  retryInfo: boolean;
  /** ms from the call's start to its status. */
  afterMs: number;
}

/**
 * A call that announces a message of `announced` bytes and sends `sent` of them, never finishing:
 * resolves with the status the server answers (from headers or trailers) once the stream closes.
 */
export function holdingCall(
  session: ClientHttp2Session,
  options: { key: string | null; announced: number; sent: number },
): { stream: ClientHttp2Stream; ended: Promise<CallEnd> } {
  const started = Date.now();
  const headers: Record<string, string> = {
    ':method': 'POST',
    ':path': TRACE_EXPORT_PATH,
    'content-type': 'application/grpc',
    te: 'trailers',
  };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const stream = session.request(headers);
  const frame = Buffer.alloc(5);
  frame.writeUInt32BE(options.announced, 1);
  stream.write(frame);
  // Written in pieces, so flow control decides how much the server takes.
  const piece = Buffer.alloc(64 * 1024, 0x61);
  for (let sent = 0; sent < options.sent; sent += piece.length) {
    stream.write(piece.subarray(0, Math.min(piece.length, options.sent - sent)));
  }
  let status: number | null = null;
  let message = '';
  let retryInfo = false;
  const read = (fields: Record<string, unknown>) => {
    if (fields['grpc-status'] === undefined) return;
    status = Number(fields['grpc-status']);
    message = decodeURIComponent(String(fields['grpc-message'] ?? ''));
    const details = fields['grpc-status-details-bin'];
    retryInfo =
      typeof details === 'string' &&
      Buffer.from(details, 'base64').toString('latin1').includes(RETRY_INFO_TYPE);
  };
  stream.on('response', read);
  stream.on('trailers', read);
  stream.on('error', () => {});
  stream.resume();
  const ended = new Promise<CallEnd>((resolve) =>
    stream.once('close', () =>
      resolve({ status, message, retryInfo, afterMs: Date.now() - started }),
    ),
  );
  return { stream, ended };
}

/** A connection whose socket the test holds, to cut it the way a vanished client does. */
export const openGrpcConnection = (port: number) => {
  const socket = netConnect(port, '127.0.0.1');
  // An attacker holds its writes itself: its own session memory must not cut its calls first.
  const session = connect(`http://127.0.0.1:${port}`, {
    maxSessionMemory: 1024,
    createConnection: () => socket,
  });
  session.on('error', () => {});
  return { session, socket };
};

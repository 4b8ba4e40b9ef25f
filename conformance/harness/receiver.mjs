// The recording receiver: an OTLP/HTTP endpoint on 127.0.0.1 that keeps every request body
// byte-for-byte, with the Content-Type and Content-Encoding it came with, and answers as a
// collector would (an empty ExportTraceServiceResponse), so exporters neither retry nor drop.
import { createServer } from 'node:http';

export async function startReceiver() {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const contentType = req.headers['content-type'] ?? null;
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (req.method === 'POST' && path === '/v1/traces') {
        requests.push({
          body: Buffer.concat(chunks),
          contentType,
          contentEncoding: req.headers['content-encoding'] ?? null,
          authorized: req.headers.authorization === `Bearer ${RECEIVER_KEY}`,
        });
      }
      const json = String(contentType).includes('json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    drain: () => requests.splice(0, requests.length),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// The key the scenario scripts send as LOOPSCOPE_API_KEY; the receiver checks that it arrived as
// `Authorization: Bearer <key>` and never stores it.
export const RECEIVER_KEY = 'ls_conformance_capture_key';

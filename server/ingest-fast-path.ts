// POST /v1/traces served by the custom server before Next's router: the same endpoint
// (ingest/otlp-endpoint.ts, over `exportTraces`) without Next's request and response objects and
// streams in the data's path. Next's route (app/v1/traces) answers the same for any other
// way of serving the app.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { answerOtlpExport } from '../ingest/otlp-endpoint';
import type { OtlpEndpointDeps } from '../ingest/otlp-endpoint';

export const OTLP_TRACES_PATH = '/v1/traces';

/** True for the requests the fast path serves: a POST to /v1/traces, with or without a query. */
export function isOtlpExport(req: IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  const url = req.url ?? '';
  return url === OTLP_TRACES_PATH || url.startsWith(`${OTLP_TRACES_PATH}?`);
}

export async function serveOtlpExport(
  req: IncomingMessage,
  res: ServerResponse,
  deps: () => OtlpEndpointDeps,
): Promise<void> {
  const answer = await answerOtlpExport(
    {
      headers: { get: (name) => headerOf(req, name) },
      body: Readable.toWeb(req) as ReadableStream<Uint8Array>,
    },
    deps,
  );
  res.writeHead(answer.status, {
    ...answer.headers,
    'content-length': String(answer.body.byteLength),
  });
  res.end(answer.body);
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

import { createGzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error';
import {
  DEFAULT_MAX_BODY_BYTES,
  decodeOtlpBody,
  parseContentEncoding,
  parseContentType,
  readBody,
  readOtlpRequest,
} from './read-body';

const MiB = 1024 * 1024;

function post(body: BodyInit | Uint8Array | null, headers: Record<string, string>): Request {
  return new Request('http://localhost/v1/traces', {
    method: 'POST',
    headers,
    body: body as BodyInit | null,
    duplex: 'half',
  } as RequestInit);
}

/** A chunked body of `chunkSize`-byte chunks that never ends, counting what was pulled. */
function endlessStream(chunkSize: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulled++;
        controller.enqueue(new Uint8Array(chunkSize));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('resolved without error');
}

async function gzipBomb(inflatedBytes: number): Promise<Uint8Array> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const zeros = Buffer.alloc(MiB);
  for (let written = 0; written < inflatedBytes; written += MiB) {
    if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return new Uint8Array(Buffer.concat(out));
}

describe('parseContentType', () => {
  it.each([
    ['application/x-protobuf', 'protobuf'],
    ['Application/X-Protobuf', 'protobuf'],
    ['application/json', 'json'],
    ['application/json; charset=utf-8', 'json'],
    [' APPLICATION/JSON ;charset=UTF-8', 'json'],
  ])('%s → %s', (header, format) => expect(parseContentType(header)).toBe(format));

  it.each([
    [null, 'no Content-Type: send application/x-protobuf or application/json'],
    ['text/plain', 'Content-Type "text/plain": send application/x-protobuf or application/json'],
    [
      'application/protobuf',
      'Content-Type "application/protobuf": send application/x-protobuf or application/json',
    ],
  ])('rejects %s with 415 naming the accepted types', (header, message) => {
    expect(() => parseContentType(header)).toThrow(new AppError('unsupported_media_type', message));
  });
});

describe('parseContentEncoding', () => {
  it.each([
    [null, false],
    ['', false],
    ['identity', false],
    ['gzip', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['identity, gzip', true],
  ])('%s → gzip %s', (header, gzip) => expect(parseContentEncoding(header)).toBe(gzip));

  it.each([
    ['br', 'unsupported Content-Encoding "br": send gzip or identity'],
    ['deflate', 'unsupported Content-Encoding "deflate": send gzip or identity'],
    ['gzip, gzip', 'unsupported Content-Encoding "gzip, gzip": send gzip or identity'],
  ])('rejects %s with 415 naming it', (header, message) => {
    const error = (() => {
      try {
        parseContentEncoding(header);
      } catch (e) {
        return e as AppError;
      }
    })();
    expect([error?.code, error?.status, error?.message]).toEqual([
      'unsupported_media_type',
      415,
      message,
    ]);
  });
});

describe('readOtlpRequest', () => {
  it('reads a chunked body and returns its format', async () => {
    const chunks = ['{"resourceSpans":', '[]}'].map((s) => new TextEncoder().encode(s));
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => (chunks.forEach((chunk) => c.enqueue(chunk)), c.close()),
    });
    const { format, body } = await readOtlpRequest(
      post(stream, { 'content-type': 'application/json' }),
      { maxBytes: 100 },
    );
    expect(format).toBe('json');
    expect(new TextDecoder().decode(body)).toBe('{"resourceSpans":[]}');
  });

  it('accepts a body of exactly the limit', async () => {
    const { body } = await readOtlpRequest(
      post(new Uint8Array(1000), { 'content-type': 'application/x-protobuf' }),
      { maxBytes: 1000 },
    );
    expect(body.length).toBe(1000);
  });

  it('stops reading as soon as a chunked body passes the limit (413) and cancels the stream', async () => {
    const { stream, state } = endlessStream(64 * 1024);
    const error = await rejection(
      readOtlpRequest(post(stream, { 'content-type': 'application/x-protobuf' }), {
        maxBytes: MiB,
      }),
    );
    expect([error.code, error.status, error.message]).toEqual([
      'payload_too_large',
      413,
      'request body exceeds the limit of 1048576 bytes',
    ]);
    expect(state.pulled).toBeLessThanOrEqual(18);
    expect(state.cancelled).toBe(true);
  });

  it('rejects a declared Content-Length over the limit before reading anything', async () => {
    const { stream, state } = endlessStream(1024);
    const request = post(stream, {
      'content-type': 'application/json',
      'content-length': String(2 * MiB),
    });
    const error = await rejection(readOtlpRequest(request, { maxBytes: MiB }));
    expect([error.code, error.message]).toEqual([
      'payload_too_large',
      'request body of 2097152 bytes exceeds the limit of 1048576 bytes',
    ]);
    expect(state.pulled).toBe(0);
  });

  it('checks the media type before reading the body (415)', async () => {
    const { stream, state } = endlessStream(1024);
    const error = await rejection(readOtlpRequest(post(stream, { 'content-type': 'text/plain' })));
    expect(error.status).toBe(415);
    expect(state.pulled).toBe(0);
  });

  it('inflates gzip', async () => {
    const json = JSON.stringify({ resourceSpans: [], padding: 'x'.repeat(10_000) });
    const request = post(gzipSync(json), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    const { body } = await readOtlpRequest(request, { maxBytes: 20_000 });
    expect(new TextDecoder().decode(body)).toBe(json);
  });

  it('stops a gzip bomb at the limit (413) without inflating it all', async () => {
    const bomb = await gzipBomb(120 * MiB);
    expect(bomb.length).toBeLessThan(MiB / 2);
    const error = await rejection(
      readOtlpRequest(
        post(bomb, { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' }),
      ),
    );
    expect([error.code, error.message]).toEqual([
      'payload_too_large',
      `gzip body inflated exceeds the limit of ${DEFAULT_MAX_BODY_BYTES} bytes`,
    ]);
  });

  it('limits the compressed size too', async () => {
    const error = await rejection(
      readOtlpRequest(
        post(new Uint8Array(2048), {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        }),
        { maxBytes: 1024 },
      ),
    );
    expect(error.code).toBe('payload_too_large');
  });

  it.each([
    [
      'corrupt',
      new TextEncoder().encode('this is not gzip at all'),
      'gzip: incorrect header check',
    ],
    ['truncated', gzipSync('{"resourceSpans":[]}').subarray(0, 15), 'gzip: unexpected end of file'],
  ])('answers 400 for %s gzip', async (_, body, message) => {
    const error = await rejection(
      readOtlpRequest(
        post(body, { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
      ),
    );
    expect([error.code, error.status, error.message]).toEqual(['malformed_body', 400, message]);
  });

  it('answers 400 when the body stream breaks off (a client that went away)', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        controller.enqueue(new Uint8Array(10));
        controller.error(new Error('socket hang up'));
      },
    });
    const error = await rejection(
      readOtlpRequest(post(stream, { 'content-type': 'application/json' })),
    );
    expect([error.code, error.message]).toEqual([
      'bad_request',
      'could not read the request body: socket hang up',
    ]);
  });

  it('reads a request without a body as empty', async () => {
    const request = new Request('http://localhost/v1/traces', {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
    });
    expect((await readOtlpRequest(request)).body.length).toBe(0);
  });
});

/** A body that sends `bytes` bytes every `everyMs`, forever, and says when it was cancelled. */
function trickle(bytes: number, everyMs: number) {
  const state = { cancelled: false };
  let timer: NodeJS.Timeout | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(() => controller.enqueue(new Uint8Array(bytes)), everyMs);
    },
    cancel() {
      state.cancelled = true;
      clearInterval(timer);
    },
  });
  return { stream, state, stop: () => clearInterval(timer) };
}

describe('readBody: the pace of a body', () => {
  it('cuts a body trickling a byte every two seconds about a second in, with 408 saying why', async () => {
    const slow = trickle(1, 2000);
    const started = Date.now();
    const error = await rejection(readBody(slow.stream, { gzipped: false }));
    slow.stop();
    expect(Date.now() - started).toBeLessThan(1600);
    expect([error.code, error.status]).toEqual(['request_timeout', 408]);
    expect(error.message).toMatch(
      /request body came too slowly \(0 bytes in 1\.\d s; send it at least 16384 bytes\/s/,
    );
    expect(slow.state.cancelled).toBe(true);
  });

  it('cuts a body that keeps the minimum rate but is not whole by the deadline', async () => {
    const steady = trickle(1000, 20);
    const error = await rejection(
      readBody(steady.stream, { gzipped: false, timeoutMs: 400, minBytesPerSecond: 1000 }),
    );
    steady.stop();
    expect(error.code).toBe('request_timeout');
    expect(error.message).toMatch(/whole within 0\.4 s/);
  });

  it('reads a body that comes in slowly but fast enough', async () => {
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setInterval(() => {
          controller.enqueue(new Uint8Array(2000));
          if (++sent === 10) {
            clearInterval(timer);
            controller.close();
          }
        }, 100);
      },
    });
    const body = await readBody(stream, { gzipped: false, minBytesPerSecond: 4000 });
    expect(body.length).toBe(20_000);
  });
});

describe('decodeOtlpBody', () => {
  it('treats an empty body as a request without spans, in both formats', () => {
    expect(decodeOtlpBody('protobuf', new Uint8Array(0))).toEqual({ spans: [] });
    expect(decodeOtlpBody('json', new Uint8Array(0))).toEqual({ spans: [] });
  });

  it('decodes JSON as UTF-8, dropping a BOM and replacing invalid bytes', () => {
    const json = '{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"caf\u00e9 X"}]}]}]}';
    const bytes = new TextEncoder().encode(`\uFEFF${json}`);
    bytes[bytes.indexOf(0x58)] = 0xff; // the X becomes an invalid byte
    expect(decodeOtlpBody('json', bytes).spans[0]?.name).toBe('caf\u00e9 \uFFFD');
  });

  it('passes decoder errors through as 400', () => {
    expect(() => decodeOtlpBody('protobuf', Uint8Array.from([0x0a, 0x05]))).toThrow(
      new AppError(
        'malformed_body',
        'protobuf: field 1 of ExportTraceServiceRequest at byte 0: length 5 runs past the end of the message',
      ),
    );
    expect(() => decodeOtlpBody('json', new TextEncoder().encode('{'))).toThrow(/^JSON: /);
  });
});

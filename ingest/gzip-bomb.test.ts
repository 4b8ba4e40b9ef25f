// A small gzip that inflates to gigabytes, through the whole endpoint: 413, and the server's
// memory does not grow anywhere near what the body would inflate to.
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../e2e/support/test-server';
import type { TestServer } from '../e2e/support/test-server';

const MiB = 1024 * 1024;

async function gzipOfZeros(bytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const chunk = Buffer.alloc(4 * MiB);
  for (let written = 0; written < bytes; written += chunk.length) {
    if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

describe('a gzip bomb', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { maxBodyBytes: 20 * MiB });
  });
  afterAll(() => server?.close());

  it('of 2 GiB is refused with 413 and inflated no further than the limit', async () => {
    const bomb = await gzipOfZeros(2048 * MiB);
    expect(bomb.length).toBeLessThan(4 * MiB);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const response = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.key}`,
        'content-type': 'application/x-protobuf',
        'content-encoding': 'gzip',
      },
      body: new Uint8Array(bomb),
    });
    clearInterval(sampler);
    expect(response.status).toBe(413);
    // the limit is 20 MiB; the body would inflate to 2048 MiB
    expect((peak - before) / MiB).toBeLessThan(200);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiskHold } from './hold';
import { RECENT_KEY_MS, RecentKeys } from './recent-keys';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'loopscope-hold-'));
  dirs.push(dir);
  return path.join(dir, 'held');
};
const entry = (text: string) => ({
  format: 'json' as const,
  body: new Uint8Array(Buffer.from(text)),
  gzipped: false,
  bytes: text.length,
  traceIds: ['a'.repeat(32)],
  runIds: ['run-1'],
});

describe('the disk hold', () => {
  it('gives back what it held, oldest first, byte for byte, to a process started after', async () => {
    const dir = folder();
    const hold = new DiskHold(dir, 1024 * 1024);
    for (const k of [1, 2, 3]) {
      await hold.put({ projectId: 'p', keyId: `k${k}`, entry: entry(`{"n":${k}}\n\u0000tail`) });
    }
    expect(hold.held.requests).toBe(3);
    // What a crash leaves: the files, read by a new process.
    const after = new DiskHold(dir, 1024 * 1024);
    await after.open();
    expect(after.held).toEqual(hold.held);
    const oldest = await after.oldest(10);
    expect(oldest.map((r) => r.keyId)).toEqual(['k1', 'k2', 'k3']);
    expect(Buffer.from(oldest[1]!.entry.body).toString()).toBe('{"n":2}\n\u0000tail');
    expect(oldest[0]!.entry).toMatchObject({ format: 'json', gzipped: false, runIds: ['run-1'] });
    for (const request of oldest) await after.remove(request);
    expect(after.held).toEqual({ requests: 0, bytes: 0 });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses with 503 past its bound, and takes again once room is made', async () => {
    const hold = new DiskHold(folder(), 300);
    await hold.put({ projectId: 'p', keyId: 'k', entry: entry('x'.repeat(100)) });
    await expect(
      hold.put({ projectId: 'p', keyId: 'k', entry: entry('y'.repeat(200)) }),
    ).rejects.toMatchObject({ code: 'unavailable', retryAfterSeconds: 5 });
    const [first] = await hold.oldest(1);
    await hold.remove(first!);
    await hold.put({ projectId: 'p', keyId: 'k', entry: entry('y'.repeat(200)) });
    expect(hold.held.requests).toBe(1);
  });

  it('sets aside a file it cannot read, and never returns it', async () => {
    const dir = folder();
    const hold = new DiskHold(dir, 1024 * 1024);
    await hold.open();
    writeFileSync(path.join(dir, '000000000000001-000000000-deadbeef.held'), 'not a header');
    await hold.put({ projectId: 'p', keyId: 'k', entry: entry('{}') });
    const held = await hold.oldest(10);
    expect(held.map((r) => r.keyId)).toEqual(['k']);
    expect(readdirSync(path.join(dir, 'unreadable'))).toHaveLength(1);
  });

  it('leaves no temporary file behind a write', async () => {
    const dir = folder();
    const hold = new DiskHold(dir, 1024 * 1024);
    await hold.put({ projectId: 'p', keyId: 'k', entry: entry('{}') });
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('recent keys', () => {
  it('recall a key let in lately, and not one past the window or never seen', () => {
    let now = 1_000_000;
    const keys = new RecentKeys(() => now);
    keys.remember('lsk_a', { projectId: 'p', keyId: 'ka' });
    expect(keys.recall('lsk_a')).toEqual({ projectId: 'p', keyId: 'ka' });
    expect(keys.recall('lsk_b')).toBeNull();
    now += RECENT_KEY_MS + 1;
    expect(keys.recall('lsk_a')).toBeNull();
  });
});

// Where the door puts an accepted request while the database cannot take it (a failover, a
// restart): one file a request on this server's disk, written and synced before the answer, so
// the exporter is answered at its own pace and drops nothing, whether or not it retries (the
// OTLP/gRPC exporter of JavaScript does not). The hold mover (server/hold-mover.ts) hands each
// file to the spool once the database answers again, then removes it: a crash in between spools
// a request twice, which storing absorbs (one span id, one span).
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { readFile, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { SpoolEntry } from '../db/write/ingest-spool';
import { AppError } from '../lib/app-error';

export interface HeldRequest {
  /** The file's name: the order requests were held in. */
  name: string;
  projectId: string;
  /** The key that was let in (a key revoked before `receivedMs` loses its request). */
  keyId: string;
  receivedMs: number;
  entry: SpoolEntry;
  /** The file's size, as the hold's bound counts it. */
  size: number;
}

interface Header {
  v: 1;
  projectId: string;
  keyId: string;
  receivedMs: number;
  format: SpoolEntry['format'];
  gzipped: boolean;
  bytes: number;
  traceIds?: readonly string[];
  runIds?: readonly string[];
}

const SUFFIX = '.held';

export class DiskHold {
  private bytesHeld = 0;
  private files = 0;
  private sequence = 0;
  private ready: Promise<void> | null = null;

  constructor(
    readonly dir: string,
    /** Bytes of bodies (as sent) held at most; past it the door answers 503 as before. */
    readonly maxBytes: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Requests held and their bytes, as this process last counted them. */
  get held(): { requests: number; bytes: number } {
    return { requests: this.files, bytes: this.bytesHeld };
  }

  /** Counts what an earlier process left (its requests are moved like this one's). */
  open(): Promise<void> {
    this.ready ??= (async () => {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      for (const name of await this.names()) {
        const size = await stat(path.join(this.dir, name)).then(
          (s) => s.size,
          () => 0,
        );
        this.files += 1;
        this.bytesHeld += size;
      }
    })();
    return this.ready;
  }

  /**
   * Writes one request and syncs it, file and folder; returning means it survives a crash.
   * 503 (as when nothing is held) when the hold is full.
   */
  async put(request: { projectId: string; keyId: string; entry: SpoolEntry }): Promise<void> {
    await this.open();
    const { body } = request.entry;
    if (this.bytesHeld + body.byteLength > this.maxBytes) {
      throw new AppError(
        'unavailable',
        'the database is unavailable and this server holds all it may meanwhile; retry later',
        { retryAfterSeconds: 5 },
      );
    }
    const header: Header = {
      v: 1,
      projectId: request.projectId,
      keyId: request.keyId,
      receivedMs: this.now(),
      format: request.entry.format,
      gzipped: request.entry.gzipped ?? false,
      bytes: request.entry.bytes ?? body.byteLength,
      traceIds: request.entry.traceIds,
      runIds: request.entry.runIds,
    };
    const name = `${String(header.receivedMs).padStart(15, '0')}-${String(this.sequence++).padStart(9, '0')}-${randomBytes(4).toString('hex')}${SUFFIX}`;
    const line = Buffer.from(`${JSON.stringify(header)}\n`);
    const size = line.byteLength + body.byteLength;
    this.bytesHeld += size;
    this.files += 1;
    try {
      // Synchronous on purpose: a few writes and two fsyncs, in a window where the database
      // (the usual cost of a request) is not being asked at all.
      const temporary = path.join(this.dir, `.${name}.tmp`);
      const fd = openSync(temporary, 'w', 0o600);
      try {
        writeSync(fd, line);
        writeSync(fd, body);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      await rename(temporary, path.join(this.dir, name));
      syncFolder(this.dir);
    } catch (error) {
      this.bytesHeld -= size;
      this.files -= 1;
      throw error;
    }
  }

  /** Held requests, oldest first, at most `limit`; a file that cannot be read is set aside. */
  async oldest(limit: number): Promise<HeldRequest[]> {
    await this.open();
    const requests: HeldRequest[] = [];
    for (const name of (await this.names()).slice(0, limit)) {
      const file = path.join(this.dir, name);
      const content = await readFile(file).catch(() => null);
      if (!content) continue;
      const parsed = parseHeld(name, content);
      if (parsed) requests.push(parsed);
      else await this.setAside({ name, size: content.byteLength }, 'unreadable');
    }
    return requests;
  }

  /** Forgets a request the spool now holds. */
  async remove(request: HeldRequest): Promise<void> {
    // Another server on this folder may have moved it first: the spool has it either way.
    await unlink(path.join(this.dir, request.name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    this.files -= 1;
    this.bytesHeld -= request.size;
  }

  /** Moves a request out of the way into `folder` (under the hold's), where nothing reads it. */
  async setAside(request: { name: string; size: number }, folder: string): Promise<string> {
    const aside = path.join(this.dir, folder);
    mkdirSync(aside, { recursive: true, mode: 0o700 });
    await rename(path.join(this.dir, request.name), path.join(aside, request.name));
    this.files -= 1;
    this.bytesHeld -= request.size;
    return aside;
  }

  private async names(): Promise<string[]> {
    const entries = await readdir(this.dir).catch(() => [] as string[]);
    return entries.filter((name) => name.endsWith(SUFFIX)).sort();
  }
}

function parseHeld(name: string, content: Buffer): HeldRequest | null {
  const end = content.indexOf(0x0a);
  if (end < 0) return null;
  try {
    const header = JSON.parse(content.subarray(0, end).toString('utf8')) as Header;
    if (header.v !== 1 || typeof header.projectId !== 'string') return null;
    return {
      name,
      projectId: header.projectId,
      keyId: header.keyId,
      receivedMs: header.receivedMs,
      entry: {
        format: header.format,
        gzipped: header.gzipped,
        bytes: header.bytes,
        body: new Uint8Array(content.subarray(end + 1)),
        traceIds: header.traceIds,
        runIds: header.runIds,
      },
      size: content.byteLength,
    };
  } catch {
    return null;
  }
}

function syncFolder(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

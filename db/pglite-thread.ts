// The main thread's end of db/pglite-worker.mjs: PGlite's `query` and `transaction`, the two calls
// drizzle's PGlite driver makes, carried over to the worker as messages. Queries outside a
// transaction wait for one that is open, as they do inside PGlite itself.
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';

interface Reply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: { name: string; message: string } & Record<string, unknown>;
}

interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

type RowMode = 'array' | 'object';

/** PGlite's query options that cross the thread: row mode, and a blob for `COPY … FROM '/dev/blob'`. */
export interface QueryOptions {
  rowMode?: RowMode;
  blob?: Blob;
}

/** What drizzle needs of a PGlite client; the thread's transaction hands the same to its callback. */
export interface PgliteLike {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult>;
  transaction<T>(fn: (tx: PgliteLike) => Promise<T>): Promise<T>;
}

export class PgliteThread implements PgliteLike {
  private next = 1;
  private readonly pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void }
  >();
  private dead: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (error) => this.die(error));
    worker.on('exit', (code) => this.die(new Error(`the PGlite thread exited (${code})`)));
  }

  /** Starts the thread and waits until PGlite has opened its data (or memory). */
  static async start(dataDir: string | undefined): Promise<PgliteThread> {
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir },
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        worker.off('error', reject);
        worker.off('message', onMessage);
        resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the PGlite thread exited (${code})`)));
    });
    return new PgliteThread(worker);
  }

  query(sql: string, params: unknown[] = [], options: QueryOptions = {}) {
    return this.send(queryMessage(undefined, sql, params, options)) as Promise<QueryResult>;
  }

  /** Statements in the simple protocol, outside any transaction (VACUUM, several at once). */
  exec(sql: string): Promise<QueryResult[]> {
    return this.send({ op: 'exec', sql }) as Promise<QueryResult[]>;
  }

  async transaction<T>(fn: (tx: PgliteLike) => Promise<T>): Promise<T> {
    // The begin message's id names the transaction on the other side.
    const tx = this.next;
    await this.send({ op: 'begin' });
    const client: PgliteLike = {
      query: (sql, params = [], options = {}) =>
        this.send(queryMessage(tx, sql, params, options)) as Promise<QueryResult>,
      transaction: () => Promise.reject(new Error('nested transactions are savepoints in drizzle')),
    };
    let result: T;
    try {
      result = await fn(client);
    } catch (error) {
      await this.send({ op: 'rollback', tx }).catch(() => undefined);
      throw error;
    }
    await this.send({ op: 'commit', tx });
    return result;
  }

  async close(): Promise<void> {
    if (this.dead) return;
    await this.send({ op: 'close' });
    await this.worker.terminate();
  }

  /** The thread as the PGlite client drizzle expects (it only calls query and transaction). */
  asClient(): PGlite {
    return this as unknown as PGlite;
  }

  private send(message: Record<string, unknown>): Promise<unknown> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.result);
    else {
      const { name, message, ...fields } = reply.error ?? { name: 'Error', message: 'failed' };
      waiting.reject(Object.assign(new Error(message), fields, { name }));
    }
  }

  private die(error: Error): void {
    if (this.dead) return;
    // Callers see an outage (503 and retry), not a bug in their request.
    this.dead = Object.assign(new Error(`PGlite is gone: ${error.message}`), {
      code: 'CONNECTION_ENDED',
    });
    for (const waiting of this.pending.values()) waiting.reject(this.dead);
    this.pending.clear();
  }
}

function queryMessage(
  tx: number | undefined,
  sql: string,
  params: unknown[],
  options: QueryOptions,
) {
  return {
    op: 'query',
    tx,
    sql,
    params,
    rowMode: options.rowMode ?? 'object',
    ...(options.blob ? { blob: options.blob } : {}),
  };
}

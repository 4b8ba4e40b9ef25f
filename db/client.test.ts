import { execFile, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, redactUrl, splitHosts } from './client';
import { migrateDatabase } from './migrate';
import { createTestDatabase, rawRows } from './test-database';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'loopscope-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const openFromAnotherProcess = (dataDir: string) =>
  run(process.execPath, [
    '--import',
    'tsx',
    '--eval',
    `import { openDatabase } from ${JSON.stringify(path.join(__dirname, 'client.ts'))};
     const handle = await openDatabase({ dataDir: ${JSON.stringify(dataDir)} });
     await handle.close();
     console.log('opened');`,
  ]);

describe('a Postgres connection', () => {
  it('runs without parallel workers, whatever the server is set to', async () => {
    const handle = await createTestDatabase('postgres');
    try {
      const [row] = await rawRows(handle.db, sql`show max_parallel_workers_per_gather`);
      expect(row).toEqual({ max_parallel_workers_per_gather: '0' });
      const [server] = await rawRows(
        handle.db,
        sql`select boot_val from pg_settings where name = 'max_parallel_workers_per_gather'`,
      );
      expect(Number(server?.boot_val)).toBeGreaterThan(0);
    } finally {
      await handle.close();
    }
  });
});

describe('a Postgres pool whose server is down', () => {
  it('fails every query and keeps its connections: more failed queries than pool slots still fail fast', async () => {
    // A port nothing listens on: each connect is refused at once.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const handle = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
      maxConnections: 2,
    });
    try {
      for (let k = 0; k < 6; k++) {
        const outcome = await Promise.race([
          handle.db.execute(sql`select 1`).then(
            () => 'answered',
            // drizzle wraps the driver's error as its cause
            (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
          ),
          new Promise((resolve) => setTimeout(() => resolve('hung'), 5_000)),
        ]);
        expect(outcome, `query ${k + 1}`).toBe('ECONNREFUSED');
      }
    } finally {
      await handle.close();
    }
  }, 60_000);
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A query's outcome within 5 s: `answered`, the driver's error code, or `hung`. */
function outcomeOf(query: Promise<unknown>): Promise<string> {
  return Promise.race([
    query.then(
      () => 'answered',
      (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('hung'), 5_000)),
  ]);
}

describe('a Postgres URL naming several hosts (a primary and its standbys)', () => {
  const target = new URL(
    process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );

  it('connects past a host that refuses, every time', async () => {
    const dead = await closedPort();
    const handle = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:${dead},${target.hostname}:${target.port || 5432}${target.pathname}?target_session_attrs=read-write`,
      maxConnections: 3,
    });
    try {
      const outcomes = await Promise.all(
        [...Array(6).keys()].map(() => outcomeOf(handle.db.execute(sql`select pg_sleep(0.05)`))),
      );
      expect(outcomes).toEqual(Array(6).fill('answered'));
    } finally {
      await handle.close();
    }
  }, 60_000);

  it('fails a query at once when every host refuses, as with one host', async () => {
    const [a, b] = [await closedPort(), await closedPort()];
    const handle = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:${a},127.0.0.1:${b}/postgres`,
      maxConnections: 2,
    });
    try {
      for (let k = 0; k < 3; k++) {
        expect(await outcomeOf(handle.db.execute(sql`select 1`)), `query ${k + 1}`).toBe(
          'ECONNREFUSED',
        );
      }
    } finally {
      await handle.close();
    }
  }, 60_000);

  it('is named in logs with every host and no password', () => {
    expect(
      redactUrl(
        'postgres://u:secret@10.0.0.1:5432,10.0.0.2:5433/db?target_session_attrs=read-write',
      ),
    ).toBe('postgres://u:***@10.0.0.1:5432,10.0.0.2:5433/db?target_session_attrs=read-write');
    expect(splitHosts('postgres://u@a,[::1]:6000/db').hosts).toEqual([
      { host: 'a', port: 5432 },
      { host: '::1', port: 6000 },
    ]);
  });
});

describe('a Postgres connection lost as it opens', () => {
  it('fails the query that asked for it and nothing else: no unhandled rejection to end the process', async () => {
    // A proxy to the test server that closes each connection once the server first says it is
    // ready (ReadyForQuery): where postgres.js would send its array-type query.
    const target = new URL(
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    );
    const proxy = createServer((client) => {
      const server = connect(Number(target.port || 5432), target.hostname);
      cutAfterFirstReady(server, client);
      client.on('data', (chunk) => server.write(chunk));
      client.on('error', () => server.destroy());
      client.on('close', () => server.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as AddressInfo).port;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const handle = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:${port}${target.pathname}`,
      maxConnections: 2,
    });
    try {
      const outcomes: string[] = [];
      for (let k = 0; k < 3; k++) {
        outcomes.push(
          await handle.db.execute(sql`select 1`).then(
            () => 'answered',
            (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
          ),
        );
      }
      // let any dropped promise of the driver reject before looking
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(outcomes).toEqual(['CONNECTION_CLOSED', 'CONNECTION_CLOSED', 'CONNECTION_CLOSED']);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await handle.close();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  }, 60_000);
});

describe('a Postgres backend killed in the middle of a transaction', () => {
  it('fails that transaction and nothing else: the process lives on and the pool serves the next queries', async () => {
    // In its own process: postgres.js 3.4.9 as published writes the transaction's rollback to the
    // closed socket from a timer, a TypeError no caller can catch (patches/postgres+3.4.9.patch).
    const database = await createTestDatabase('postgres');
    try {
      const { stdout } = await run(
        process.execPath,
        [
          '--import',
          'tsx',
          '--eval',
          `import { sql } from 'drizzle-orm';
           import { openDatabase } from ${JSON.stringify(path.join(__dirname, 'client.ts'))};
           const handle = await openDatabase({ databaseUrl: process.env.KILL_URL, maxConnections: 3 });
           const killer = await openDatabase({ databaseUrl: process.env.KILL_URL, maxConnections: 1 });
           const code = (error) => error.cause?.code ?? error.code ?? error.message;
           const rounds = [];
           for (let round = 0; round < 3; round++) {
             let pid = null;
             const killed = handle.db.transaction(async (tx) => {
               pid = (await tx.execute(sql\`select pg_backend_pid() as pid\`))[0].pid;
               await tx.execute(sql\`select pg_sleep(5)\`);
             });
             while (pid === null) await new Promise((resolve) => setTimeout(resolve, 20));
             await killer.db.execute(sql\`select pg_terminate_backend(\${pid})\`);
             const transaction = await killed.then(() => 'committed', code);
             const after = await Promise.all(
               [1, 2, 3, 4, 5, 6].map((k) =>
                 handle.db.execute(sql\`select \${k}::int as k\`).then((rows) => rows[0].k, code),
               ),
             );
             const next = await handle.db
               .transaction(async (tx) => (await tx.execute(sql\`select 7 as seven\`))[0].seven)
               .catch(code);
             rounds.push({ transaction, after, next });
           }
           await new Promise((resolve) => setTimeout(resolve, 200));
           await killer.close();
           await handle.close();
           console.log(JSON.stringify(rounds));`,
        ],
        { env: { ...process.env, KILL_URL: database.url }, timeout: 60_000 },
      );
      const round = { transaction: 'CONNECTION_CLOSED', after: [1, 2, 3, 4, 5, 6], next: 7 };
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual([round, round, round]);
    } finally {
      await database.close();
    }
  }, 90_000);
});

/** Pipes `server` to `client` until the first ReadyForQuery message, then closes both. */
function cutAfterFirstReady(server: Socket, client: Socket): void {
  let pending = Buffer.alloc(0);
  server.on('error', () => client.destroy());
  server.on('close', () => client.destroy());
  server.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    let at = 0;
    while (pending.length - at >= 5) {
      const length = pending.readUInt32BE(at + 1);
      if (pending.length - at < 1 + length) break;
      const type = String.fromCharCode(pending[at]!);
      at += 1 + length;
      if (type === 'Z') {
        client.write(pending.subarray(0, at));
        client.destroy();
        server.destroy();
        return;
      }
    }
    client.write(pending.subarray(0, at));
    pending = pending.subarray(at);
  });
}

describe('a PGlite data folder', () => {
  it('belongs to one process: a second one fails fast and says why', async () => {
    const dataDir = path.join(dir, 'data');
    const handle = await openDatabase({ dataDir });
    try {
      await migrateDatabase(handle);
      await expect(openFromAnotherProcess(dataDir)).rejects.toMatchObject({
        stderr: expect.stringMatching(/in use by another Loopscope process \(pid \d+\)/),
      });
    } finally {
      await handle.close();
    }
    // released on close: the other process may open it now
    expect((await openFromAnotherProcess(dataDir)).stdout).toContain('opened');
  });

  it('left locked by a process that died (kill -9) is taken over, with its data intact', async () => {
    const dataDir = path.join(dir, 'crashed');
    const first = await openDatabase({ dataDir });
    await migrateDatabase(first);
    await first.db.execute(sql`insert into projects (name) values ('survivor')`);
    await first.close();
    // a lock file naming a pid that no longer runs, as kill -9 leaves it
    const gone = spawnSync(process.execPath, ['--eval', 'process.exit(0)']).pid;
    writeFileSync(path.join(dataDir, 'loopscope.pid'), String(gone));
    const again = await openDatabase({ dataDir });
    try {
      const rows = await again.db.execute(sql`select name from projects`);
      expect(JSON.stringify(rows)).toContain('survivor');
    } finally {
      await again.close();
    }
  });

  it('is private to its owner: the folder 0700, no file readable by others, even one made 0755 before', async () => {
    const dataDir = path.join(dir, 'private');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const handle = await openDatabase({ dataDir });
    const open = everyMode(dataDir);
    await migrateDatabase(handle);
    await handle.close();
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(open.filter((m) => m & 0o077)).toEqual([]);
    expect(everyMode(dataDir).filter((m) => m & 0o077)).toEqual([]);
  });

  it('left by a process killed a moment ago and not yet reaped (a zombie) is taken over', async () => {
    const dataDir = path.join(dir, 'zombie');
    // sh starts the holder, then becomes `sleep`, which never reaps it: killed, it stays a zombie.
    const holderScript = `import { openDatabase } from ${JSON.stringify(path.join(__dirname, 'client.ts'))};
      await openDatabase({ dataDir: ${JSON.stringify(dataDir)} });
      console.log('holding');
      setInterval(() => {}, 1000);`;
    const parent = spawn(
      'sh',
      ['-c', `"${process.execPath}" --import tsx --eval "$HOLDER" & echo $!; exec sleep 60`],
      { env: { ...process.env, HOLDER: holderScript }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let output = '';
      await new Promise<void>((resolve) =>
        parent.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('holding')) resolve();
        }),
      );
      const holder = Number(output.split('\n')[0]);
      process.kill(holder, 'SIGKILL');
      for (let k = 0; k < 50 && !procState(holder).startsWith('Z'); k++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(procState(holder)).toBe('Z');
      const again = await openDatabase({ dataDir });
      await again.close();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('naming a pid now used by another program is taken over', async () => {
    const dataDir = path.join(dir, 'reused');
    await (await openDatabase({ dataDir })).close();
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      // The lock of a process long gone whose pid `sleep` has now, with another start time.
      writeFileSync(path.join(dataDir, 'loopscope.pid'), `${other.pid} 1`);
      await (await openDatabase({ dataDir })).close();
      // A lock from before start times were written: a pid that is not a Node process.
      writeFileSync(path.join(dataDir, 'loopscope.pid'), String(other.pid));
      await (await openDatabase({ dataDir })).close();
    } finally {
      other.kill('SIGKILL');
    }
  });
});

function everyMode(root: string): number[] {
  const modes: number[] = [];
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      modes.push(statSync(file).mode & 0o777);
      if (entry.isDirectory()) visit(file);
    }
  };
  visit(root);
  return modes;
}

function procState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
  } catch {
    return 'gone';
  }
}

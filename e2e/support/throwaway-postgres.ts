// A Postgres cluster of the test's own (initdb in a temp folder, its own port), so a test can
// stop and start the database under a running Loopscope without touching the machine's server.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const version = readdirSync(root).sort().at(-1);
  if (!version) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  return path.join(root, version, 'bin');
}

/** Runs a Postgres tool as the `postgres` user when we are root (initdb refuses root). */
function pgTool(tool: string, args: string[]): void {
  const command = path.join(binDir(), tool);
  if (process.getuid?.() === 0) {
    execFileSync(
      'su',
      ['postgres', '-s', '/bin/sh', '-c', [command, ...args].map(quote).join(' ')],
      { stdio: 'pipe' },
    );
  } else {
    execFileSync(command, args, { stdio: 'pipe' });
  }
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

export interface ThrowawayPostgres {
  url: string;
  start(): void;
  stop(): void;
  destroy(): void;
}

export function createThrowawayPostgres(port: number): ThrowawayPostgres {
  const dir = mkdtempSync(path.join(tmpdir(), 'loopscope-pg-'));
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  pgTool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const ctl = (action: string, extra: string[] = []) =>
    pgTool('pg_ctl', ['-D', data, '-w', '-t', '30', ...extra, action]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => ctl('start', ['-o', options, '-l', path.join(dir, 'log')]),
    stop: () => ctl('stop', ['-m', 'fast']),
    destroy: () => {
      try {
        ctl('stop', ['-m', 'immediate']);
      } catch {
        // already stopped
      }
      execFileSync('rm', ['-rf', dir]);
    },
  };
}

// Which CPUs a part's processes run on. A load generator that shares the server's cores measures
// the two together: under a burst it took 1.2 of this machine's 2 cores and the server was
// measured on what it left. A part that keeps them apart holds the generator to the last CPU
// (load-driver.ts) and the server, with its Postgres when that runs on this machine, to the rest.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import postgres from 'postgres';

/** The CPUs left to the server when the generator takes the last one ("0" on 2 CPUs), or null. */
export function serverCpus(): string | null {
  const cpus = availableParallelism();
  if (cpus < 2 || process.env.BENCH_PIN_GENERATOR === '0') return null;
  return cpus === 2 ? '0' : `0-${cpus - 2}`;
}

/** Every CPU of the machine, as taskset lists them. */
function allCpus(): string {
  const cpus = availableParallelism();
  return cpus === 1 ? '0' : `0-${cpus - 1}`;
}

/** Holds a process and all its threads (and those it starts later) to `cpus`; false if it could not. */
export function pinProcess(pid: number, cpus: string): boolean {
  const pinned = spawnSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
  return pinned.status === 0;
}

/**
 * Holds the Postgres server behind `url` to `cpus` when it runs on this machine: its postmaster
 * (whose backends, forked later, inherit it) and the processes it has now. Returns how to give it
 * every CPU back, or null where it could not (a server elsewhere, or no right to).
 */
export async function pinPostgres(url: string, cpus: string): Promise<(() => void) | null> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let postmaster: number | null;
  try {
    const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    // Read while the backend lives: once the connection ends, its /proc entry is gone.
    postmaster = parentOf(Number(row?.pid));
  } finally {
    await sql.end();
  }
  if (postmaster === null || !commandOf(postmaster).includes('postgres')) return null;
  if (!pinProcess(postmaster, cpus)) return null;
  // A backend may exit between the listing and its pin (this function's own, for one): no loss.
  for (const child of childrenOf(postmaster)) pinProcess(child, cpus);
  return () => {
    for (const pid of [postmaster, ...childrenOf(postmaster)]) pinProcess(pid, allCpus());
  };
}

function parentOf(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const ppid = /^PPid:\s+(\d+)/m.exec(status)?.[1];
    return ppid === undefined ? null : Number(ppid);
  } catch {
    return null;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

function childrenOf(pid: number): number[] {
  const listed = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
  return listed.stdout
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((child) => child > 0);
}

// Memory and CPU of processes, from /proc (Linux): the server's RSS and CPU, and the CPU of the
// Postgres server's processes, so a run can say where the machine's cores went.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticks: number | null = null;
function clockTicks(): number {
  if (ticks === null) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** Resident memory of a process in MB; NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** User + system CPU seconds a process has used so far; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start at ") ": utime and stime are 14, 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks();
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of every process named `postgres` on this machine (the server and backends). */
export function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    const seconds = cpuSeconds(Number(entry));
    if (Number.isFinite(seconds)) total += seconds;
  }
  return total;
}

/** Samples a process's RSS every `everyMs` until stopped: peak, median and last. */
export function sampleRss(pid: number, everyMs = 100) {
  const samples: number[] = [];
  const take = () => {
    const mb = rssMb(pid);
    if (Number.isFinite(mb)) samples.push(mb);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      const sorted = [...samples].sort((a, b) => a - b);
      return {
        peakMb: sorted[sorted.length - 1] ?? Number.NaN,
        medianMb: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
        lastMb: samples[samples.length - 1] ?? Number.NaN,
      };
    },
  };
}

/** CPU used by a process (and optionally by Postgres) over a window, as cores busy. */
export function cpuWindow(pid: number, withPostgres: boolean) {
  const started = performance.now();
  const server0 = cpuSeconds(pid);
  const postgres0 = withPostgres ? postgresCpuSeconds() : 0;
  return {
    stop() {
      const seconds = (performance.now() - started) / 1000;
      return {
        seconds,
        serverCores: (cpuSeconds(pid) - server0) / seconds,
        postgresCores: withPostgres ? (postgresCpuSeconds() - postgres0) / seconds : 0,
      };
    },
  };
}

/**
 * Resolves once a process has used less than `idleShare` of a core for `quietMs` on end: with
 * PGlite the deriver runs inside the server, so its queue is empty when the server goes quiet.
 */
export async function waitForQuiet(
  pid: number,
  options: { quietMs?: number; idleShare?: number; timeoutMs?: number } = {},
): Promise<number> {
  const quietMs = options.quietMs ?? 400;
  const idleShare = options.idleShare ?? 0.05;
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  let last = cpuSeconds(pid);
  let lastAt = Date.now();
  let quietSince: number | null = null;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = Date.now();
    const used = cpuSeconds(pid);
    const busy = (used - last) / ((now - lastAt) / 1000);
    if (busy < idleShare) quietSince ??= lastAt;
    else quietSince = null;
    last = used;
    lastAt = now;
    if (quietSince !== null && now - quietSince >= quietMs) return quietSince;
  }
  throw new Error(`process ${pid} did not go quiet`);
}

/** Starts `start` after `delayMs` and stops it `durationMs` later, in the background. */
export function measureLater<T>(
  delayMs: number,
  durationMs: number,
  start: () => { stop(): T },
): { result(): T | null } {
  let running: { stop(): T } | null = null;
  let result: T | null = null;
  const t1 = setTimeout(() => (running = start()), delayMs);
  const t2 = setTimeout(() => (result = running?.stop() ?? null), delayMs + durationMs);
  return {
    result() {
      clearTimeout(t1);
      clearTimeout(t2);
      return result;
    },
  };
}

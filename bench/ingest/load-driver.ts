// The parent side of the load generator: forks it (with tsx, so it runs from source) and runs
// commands on it one at a time.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { pinProcess, serverCpus } from '../shared/cpus';
import type { GeneratorCommand, GeneratorReply, GeneratorResult } from './load-protocol';

type Command = Exclude<GeneratorCommand, { type: 'exit' }>;
// Distributive, so each command keeps its own fields.
type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface LoadGenerator {
  pid: number;
  /** The CPU the generator is held to (taskset), or null where it runs on any. */
  cpu: number | null;
  run(command: Without<Command, 'seed'>): Promise<GeneratorResult>;
  close(): Promise<void>;
}

let seeds = 0;

export async function startLoadGenerator(): Promise<LoadGenerator> {
  const script = fileURLToPath(new URL('./load-generator.ts', import.meta.url));
  const child: ChildProcess = fork(script, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cpu = pinToLastCpu(child.pid);
  let waiting: {
    resolve: (value: GeneratorResult) => void;
    reject: (error: Error) => void;
  } | null = null;
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the load generator exited (${code})`)));
  });
  child.on('message', (reply: GeneratorReply) => {
    const current = waiting;
    waiting = null;
    if (reply.type === 'result') current?.resolve(reply.result);
    else if (reply.type === 'error') current?.reject(new Error(`load generator: ${reply.message}`));
  });
  child.on('exit', (code) => {
    waiting?.reject(new Error(`the load generator exited (${code})`));
    waiting = null;
  });
  return {
    pid: child.pid ?? 0,
    cpu,
    run(command) {
      if (waiting) return Promise.reject(new Error('the load generator is busy'));
      return new Promise<GeneratorResult>((resolve, reject) => {
        waiting = { resolve, reject };
        // A seed per command and per process, so no two commands ever send the same span ids'
        // runs twice (the SDK makes the ids; the seed varies the runs' content).
        child.send({ ...command, seed: process.pid * 1000 + seeds++ } as GeneratorCommand);
      });
    },
    async close() {
      if (child.exitCode === null && child.connected) child.send({ type: 'exit' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Holds the generator (every thread of it: gzip runs on libuv's pool) to the machine's last CPU,
 * so however hard it works it leaves the server and its database the rest of the machine: a
 * generator free to roam took 1.2 of 2 cores under a burst. Null on one CPU, where taskset is
 * missing, or with BENCH_PIN_GENERATOR=0.
 */
function pinToLastCpu(pid: number | undefined): number | null {
  if (pid === undefined || serverCpus() === null) return null;
  const last = availableParallelism() - 1;
  return pinProcess(pid, String(last)) ? last : null;
}

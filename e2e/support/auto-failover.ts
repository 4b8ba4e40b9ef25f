// A Postgres formation of the test's own with pg_auto_failover (Debian's
// postgresql-15-auto-failover): a monitor, a primary and a synchronous standby on loopback, each
// run by its `pg_autoctl` keeper in a process group of its own, so a test can kill a node (keeper
// and postmaster, SIGKILL) the way a machine is lost, and watch the monitor promote the standby.
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';

const PG_AUTOCTL = '/usr/bin/pg_autoctl';

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const version = readdirSync(root).sort().at(-1);
  if (!version) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  return path.join(root, version, 'bin');
}

/** Why the formation cannot be made here, or null. */
export function autoFailoverMissing(): string | null {
  return existsSync(PG_AUTOCTL)
    ? null
    : 'pg_autoctl is not installed: apt-get install postgresql-15-auto-failover (bash .ci/run does)';
}

/**
 * The monitor's clock, shortened from its defaults (a health check every 5 s, a node unhealthy
 * after 20 s, 30 s for an unreachable primary to demote itself) so the test's failover takes
 * seconds: the same state machine, on a quicker clock. docs/scale.md gives the defaults' figure.
 */
export const QUICK_MONITOR = {
  'pgautofailover.health_check_period': '1000',
  'pgautofailover.health_check_timeout': '1000',
  'pgautofailover.health_check_max_retries': '1',
  'pgautofailover.health_check_retry_delay': '500',
  'pgautofailover.node_considered_unhealthy_timeout': '3000',
  'pgautofailover.primary_demote_timeout': '3000',
};

export interface FormationNode {
  name: string;
  port: number;
  dataDir: string;
}

export interface NodeState {
  name: string;
  port: number;
  reported: string;
  goal: string;
}

export interface Formation {
  /** Both data nodes, for `target_session_attrs=read-write` to choose from. */
  url(database: string): string;
  nodes: FormationNode[];
  state(): Promise<NodeState[]>;
  /** The node the monitor has as primary, once the formation has settled on one. */
  waitForPrimary(timeoutMs?: number): Promise<FormationNode>;
  /** SIGKILL to the node's keeper and postmaster: the node is gone, as if its machine were. */
  kill(node: FormationNode): void;
  destroy(): Promise<void>;
}

export async function createFormation(ports: {
  monitor: number;
  nodes: [number, number];
  /** Keep the monitor's own clock (a failover of about a minute) rather than QUICK_MONITOR. */
  defaultTiming?: boolean;
}): Promise<Formation> {
  const missing = autoFailoverMissing();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(path.join(tmpdir(), 'loopscope-failover-'));
  chmodSync(dir, 0o777);
  const asPostgres = process.getuid?.() === 0 ? postgresUser() : {};
  // pg_autoctl keeps its state under XDG folders: inside the formation's own, never the user's.
  const env = {
    ...process.env,
    PATH: `${binDir()}:${process.env.PATH ?? ''}`,
    HOME: dir,
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_DATA_HOME: path.join(dir, 'share'),
    XDG_RUNTIME_DIR: path.join(dir, 'run'),
  };
  const keepers: ChildProcess[] = [];
  const tool = (args: string[]) => {
    try {
      execFileSync(PG_AUTOCTL, args, { env, ...asPostgres, stdio: 'pipe', cwd: dir });
    } catch (error) {
      const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
      throw new Error(`pg_autoctl ${args.slice(0, 2).join(' ')} failed:\n${stderr.slice(-3000)}`);
    }
  };
  const run = (dataDir: string) => {
    const child = spawn(PG_AUTOCTL, ['run', '--pgdata', dataDir], {
      env,
      ...asPostgres,
      cwd: dir,
      detached: true,
      stdio: 'ignore',
    });
    keepers.push(child);
    return child;
  };
  const monitorDir = path.join(dir, 'monitor');
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${ports.monitor}/pg_auto_failover?sslmode=disable`;
  const common = [
    '--hostname',
    '127.0.0.1',
    '--listen',
    '127.0.0.1',
    '--auth',
    'trust',
    '--no-ssl',
  ];
  tool(['create', 'monitor', '--pgdata', monitorDir, '--pgport', String(ports.monitor), ...common]);
  run(monitorDir);
  const monitor = postgres(`postgres://postgres@127.0.0.1:${ports.monitor}/pg_auto_failover`, {
    max: 1,
    onnotice: () => {},
    connect_timeout: 5,
  });
  await until(async () => (await monitor`select 1 as up`.catch(() => []))[0]?.up === 1, 30_000);
  for (const [name, value] of Object.entries(ports.defaultTiming ? {} : QUICK_MONITOR)) {
    await monitor.unsafe(`alter system set ${name} = '${value}'`);
  }
  await monitor`select pg_reload_conf()`;

  const nodes = ports.nodes.map((port, k) => ({
    name: `node${k + 1}`,
    port,
    dataDir: path.join(dir, `node${k + 1}`),
  }));
  const byName = new Map(nodes.map((node) => [node.name, node]));
  const groups = new Map<string, ChildProcess>();
  for (const node of nodes) {
    tool([
      'create',
      'postgres',
      '--pgdata',
      node.dataDir,
      '--pgport',
      String(node.port),
      '--name',
      node.name,
      '--monitor',
      monitorUrl,
      ...common,
    ]);
    groups.set(node.name, run(node.dataDir));
    // The second node is cloned from the first: let the first be primary before it starts.
    await until(async () => {
      const states = await readState();
      return (
        states.find((s) => s.name === node.name)?.reported ===
        (node === nodes[0] ? 'single' : 'secondary')
      );
    }, 60_000);
  }
  // With its standby in step the first node is `primary`, its commits waiting for the standby.
  await until(async () => (await readState())[0]?.reported === 'primary', 60_000);

  async function readState(): Promise<NodeState[]> {
    const rows = await monitor<
      { nodename: string; nodeport: number; reportedstate: string; goalstate: string }[]
    >`
      select nodename, nodeport, reportedstate::text, goalstate::text from pgautofailover.node order by nodeid`;
    return rows.map((r) => ({
      name: r.nodename,
      port: r.nodeport,
      reported: r.reportedstate,
      goal: r.goalstate,
    }));
  }

  return {
    url: (database) =>
      `postgres://postgres@${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}/${database}?target_session_attrs=read-write`,
    nodes,
    state: readState,
    async waitForPrimary(timeoutMs = 60_000) {
      let primary: FormationNode | undefined;
      await until(async () => {
        const states = await readState();
        const found = states.find(
          (s) =>
            ['primary', 'wait_primary', 'single'].includes(s.reported) && s.reported === s.goal,
        );
        primary = found ? byName.get(found.name) : undefined;
        return primary !== undefined;
      }, timeoutMs);
      return primary as FormationNode;
    },
    kill(node) {
      const keeper = groups.get(node.name);
      const postmaster = Number(
        readFileSync(path.join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      if (keeper?.pid) process.kill(-keeper.pid, 'SIGKILL');
      try {
        process.kill(postmaster, 'SIGKILL');
      } catch {
        // went with its keeper's group
      }
    },
    async destroy() {
      await monitor.end({ timeout: 1 }).catch(() => {});
      for (const keeper of keepers) {
        try {
          if (keeper.pid) process.kill(-keeper.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      for (const dataDir of [monitorDir, ...nodes.map((n) => n.dataDir)]) {
        const pidFile = path.join(dataDir, 'postmaster.pid');
        if (!existsSync(pidFile)) continue;
        try {
          process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      execFileSync('rm', ['-rf', dir]);
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the formation did not get there within ${timeoutMs} ms`);
}

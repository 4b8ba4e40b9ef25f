// `loopscope start | dev | build | migrate | keys create|list|revoke | demo`
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dataDirHolder, openDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { readPriceFile } from '../lib/settings';
import { runDemoCommand } from '../samples/demo-command';
import { PriceTable } from '../trajectory/pricing';
import { DEFAULT_PROJECT } from './boot';
import { build, ensureBuild } from './build';
import { readServerConfig } from './config';
import type { ServerConfig } from './config';
import { formatKeyResult, MAX_RETENTION_DAYS, runKeyCommand } from './key-commands';
import type { KeyCommand, KeyCommandResult } from './key-commands';
import { startServer } from './start';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = `Usage:
  loopscope start [--no-build]          build if needed, migrate, serve on PORT (default 3000)
  loopscope dev                         the same with Next.js in development mode
  loopscope build                       build the dashboard
  loopscope migrate                     apply database migrations and exit
  loopscope keys create --project NAME [--name LABEL]
  loopscope keys list
  loopscope keys revoke <key id | key prefix>
  loopscope projects set NAME --retention-days N
                                        keep the project's runs N days from their start (30 by
                                        default); older ones are deleted by the running server
  loopscope demo [--project NAME]       send the sample runs to the running server (four weeks of
                                        runs; again adds nothing). OTEL_EXPORTER_OTLP_ENDPOINT and
                                        OTEL_EXPORTER_OTLP_HEADERS send them elsewhere

Settings come from the environment: DATABASE_URL (else PGlite in LOOPSCOPE_DATA_DIR,
default ./.loopscope), PORT, HOST, LOOPSCOPE_INIT_API_KEY, LOOPSCOPE_PRICES_FILE, LOOPSCOPE_CONFIG.`;

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      name: { type: 'string' },
      'retention-days': { type: 'string' },
      'no-build': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub, arg] = positionals;
  const log = (message: string) => console.log(`[loopscope] ${message}`);
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  switch (command) {
    case 'start':
      // Every setting's rule is checked before a build that may take minutes.
      readServerConfig(process.env, ROOT);
      if (!values['no-build']) ensureBuild(ROOT, log);
      return startServer(ROOT, { dev: false });
    case 'dev':
      return startServer(ROOT, { dev: true });
    case 'build':
      return build(ROOT);
    case 'migrate': {
      const config = readServerConfig(process.env, ROOT);
      const handle = await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
      });
      await migrateDatabase(handle);
      await handle.close();
      log(`Migrated ${handle.location}`);
      return;
    }
    case 'projects': {
      const projectCommand = parseProjectCommand(sub, arg, values);
      const result = await runAgainstDatabase(readServerConfig(process.env, ROOT), projectCommand);
      console.log(formatKeyResult(result));
      return;
    }
    case 'keys': {
      const keyCommand = parseKeyCommand(sub, arg, values);
      const result = await runAgainstDatabase(readServerConfig(process.env, ROOT), keyCommand);
      console.log(formatKeyResult(result));
      return;
    }
    case 'demo': {
      const config = readServerConfig(process.env, ROOT);
      await runDemoCommand({
        env: process.env,
        local: config,
        project: values.project ?? DEFAULT_PROJECT,
        prices: new PriceTable(readPriceFile(config.pricesFile)),
        keys: {
          create: async (project) => {
            const created = await runAgainstDatabase(config, {
              action: 'create',
              project,
              name: 'loopscope demo',
            });
            if (created.action !== 'create') throw new Error('the key was not created');
            return created;
          },
          revoke: async (id) => {
            await runAgainstDatabase(config, { action: 'revoke', id });
          },
        },
        log,
      });
      return;
    }
    default:
      throw new UsageError(`Unknown command "${command}"`);
  }
}

class UsageError extends Error {}

function parseKeyCommand(
  sub: string | undefined,
  arg: string | undefined,
  values: { project?: string; name?: string },
): KeyCommand {
  if (sub === 'create') {
    if (!values.project) throw new UsageError('keys create needs --project NAME');
    return { action: 'create', project: values.project, name: values.name };
  }
  if (sub === 'list') return { action: 'list' };
  if (sub === 'revoke') {
    if (!arg) throw new UsageError('keys revoke needs a key id or prefix');
    return { action: 'revoke', id: arg };
  }
  throw new UsageError(`Unknown keys command "${sub ?? ''}"`);
}

function parseProjectCommand(
  sub: string | undefined,
  name: string | undefined,
  values: { 'retention-days'?: string },
): KeyCommand {
  if (sub !== 'set') throw new UsageError(`Unknown projects command "${sub ?? ''}"`);
  if (!name) throw new UsageError('projects set needs the project NAME');
  const raw = values['retention-days'];
  if (raw === undefined) throw new UsageError('projects set needs --retention-days N');
  const days = Number(raw);
  if (!/^\d+$/.test(raw) || days < 1 || days > MAX_RETENTION_DAYS) {
    throw new UsageError(`--retention-days must be a whole number from 1 to ${MAX_RETENTION_DAYS}`);
  }
  return { action: 'set-retention', project: name, retentionDays: days };
}

/** Opens the database itself, or asks the running server that holds the PGlite folder. */
async function runAgainstDatabase(
  config: ServerConfig,
  command: KeyCommand,
): Promise<KeyCommandResult> {
  if (!config.databaseUrl && dataDirHolder(config.dataDir) !== null)
    return viaServer(config, command);
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateDatabase(handle);
    return await runKeyCommand(handle.db, command);
  } finally {
    await handle.close();
  }
}

async function viaServer(config: ServerConfig, command: KeyCommand): Promise<KeyCommandResult> {
  const token = readFileSync(path.join(config.dataDir, 'admin-token'), 'utf8').trim();
  const { host, port } = JSON.parse(
    readFileSync(path.join(config.dataDir, 'server.json'), 'utf8'),
  ) as { host: string; port: number };
  const target = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const response = await fetch(
    `http://${target.includes(':') ? `[${target}]` : target}:${port}/api/admin/keys`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-loopscope-admin': token },
      body: JSON.stringify(command),
    },
  );
  const body = (await response.json()) as KeyCommandResult | { error: { message: string } };
  if (!response.ok || 'error' in body) {
    throw new Error(
      `The running server refused: ${'error' in body ? body.error.message : response.status}`,
    );
  }
  return body;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(`[loopscope] ${(error as Error).message}`);
  console.error('[loopscope] stopped');
  process.exit(1);
});

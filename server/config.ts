// The server's environment, parsed once. Every setting has a default, so `npm start` needs none.
import path from 'node:path';
import { z } from 'zod';
import { dashboardDoor } from '../lib/dashboard-session';

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).optional(),
  LOOPSCOPE_DATA_DIR: z.string().min(1).default('.loopscope'),
  LOOPSCOPE_INIT_API_KEY: z
    .string()
    .min(16, 'LOOPSCOPE_INIT_API_KEY must be at least 16 characters')
    .optional(),
  LOOPSCOPE_PRICES_FILE: z.string().min(1).optional(),
  LOOPSCOPE_CONFIG: z.string().min(1).optional(),
  LOOPSCOPE_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 * 1024),
  LOOPSCOPE_INGEST_CONCURRENCY: z.coerce.number().int().positive().optional(),
  LOOPSCOPE_INGEST_QUEUE: z.coerce.number().int().min(0).optional(),
  LOOPSCOPE_DERIVE_BACKLOG: z.coerce.number().int().positive().default(1000),
  LOOPSCOPE_DASHBOARD_PASSWORD: z
    .string()
    .min(12, 'LOOPSCOPE_DASHBOARD_PASSWORD must be at least 12 characters')
    .optional(),
});

export interface ServerConfig {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  initApiKey: string | undefined;
  pricesFile: string;
  settingsFile: string | undefined;
  maxBodyBytes: number;
  ingestConcurrency: number;
  ingestQueue: number;
  /** Runs waiting to be derived past which ingest answers 429 until derivation catches up. */
  deriveBacklog: number;
  /** Null: the dashboard is open, which it only is on loopback. */
  dashboardPassword: string | null;
}

export function readServerConfig(
  source: Record<string, string | undefined> = process.env,
  root = process.cwd(),
): ServerConfig {
  // An empty variable is an unset one (`DATABASE_URL= npm start` means PGlite).
  const set = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = env.safeParse(set);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid setting ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(root, e.LOOPSCOPE_DATA_DIR),
    initApiKey: e.LOOPSCOPE_INIT_API_KEY,
    pricesFile: path.resolve(root, e.LOOPSCOPE_PRICES_FILE ?? 'prices.json'),
    settingsFile: e.LOOPSCOPE_CONFIG ? path.resolve(root, e.LOOPSCOPE_CONFIG) : undefined,
    maxBodyBytes: e.LOOPSCOPE_MAX_BODY_BYTES,
    // PGlite runs one query at a time; a server has a pool to share.
    ingestConcurrency: e.LOOPSCOPE_INGEST_CONCURRENCY ?? (e.DATABASE_URL ? 8 : 2),
    // A short queue: a request that would wait long is better told to come back (429).
    ingestQueue:
      e.LOOPSCOPE_INGEST_QUEUE ?? 2 * (e.LOOPSCOPE_INGEST_CONCURRENCY ?? (e.DATABASE_URL ? 8 : 2)),
    deriveBacklog: e.LOOPSCOPE_DERIVE_BACKLOG,
    dashboardPassword: dashboardDoor(e.HOST, e.LOOPSCOPE_DASHBOARD_PASSWORD).password,
  };
}

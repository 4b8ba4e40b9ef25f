// The server's environment, parsed once. Every setting has a default, so `npm start` needs none.
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BODY_MIN_BYTES_PER_SECOND, DEFAULT_BODY_TIMEOUT_MS } from '../ingest/read-body';
import {
  admissionLimits,
  DEFAULT_BODY_BYTES_IN_FLIGHT,
  DEFAULT_MAX_WAIT_MS,
} from '../ingest/admission';
import type { AdmissionLimits } from '../ingest/admission';
import { DEFAULT_SPOOL_LIMITS } from '../ingest/spool';
import type { SpoolLimits } from '../ingest/spool';
import { dashboardDoor } from '../lib/door/dashboard-session';
import { DEFAULT_GRPC_LIMITS } from './grpc-server';
import type { GrpcDoorLimits } from './grpc-server';
import { parseWebhookAllow } from '../lib/alerts/webhook-allow';

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // OTLP/gRPC: 0 or `off` turns it off.
  LOOPSCOPE_GRPC_PORT: z
    .union([z.literal('off'), z.coerce.number().int().min(0).max(65535)])
    .default(4317),
  LOOPSCOPE_GRPC_CONNECTIONS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_GRPC_LIMITS.connectionsPerAddress),
  LOOPSCOPE_GRPC_CALLS_PER_ADDRESS: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_GRPC_LIMITS.callsPerAddress),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_READ_URL: z.string().min(1).optional(),
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
  LOOPSCOPE_INGEST_PER_PROJECT: z.coerce.number().int().positive().optional(),
  LOOPSCOPE_INGEST_PER_KEY: z.coerce.number().int().positive().optional(),
  LOOPSCOPE_INGEST_MAX_WAIT_MS: z.coerce.number().int().positive().default(DEFAULT_MAX_WAIT_MS),
  LOOPSCOPE_INGEST_BODY_MB: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_BODY_BYTES_IN_FLIGHT / (1024 * 1024)),
  LOOPSCOPE_BODY_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_BODY_TIMEOUT_MS),
  LOOPSCOPE_BODY_MIN_RATE: z.coerce
    .number()
    .int()
    .min(0)
    .default(DEFAULT_BODY_MIN_BYTES_PER_SECOND),
  LOOPSCOPE_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'LOOPSCOPE_PUBLIC_URL must be an http:// or https:// URL' })
    .optional(),
  LOOPSCOPE_DERIVE_BACKLOG: z.coerce.number().int().positive().default(1000),
  LOOPSCOPE_SPOOL_MAX_REQUESTS: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_SPOOL_LIMITS.maxRequests),
  LOOPSCOPE_SPOOL_MAX_MB: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_SPOOL_LIMITS.maxBytes / (1024 * 1024)),
  LOOPSCOPE_SPOOL_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(DEFAULT_SPOOL_LIMITS.maxAgeMs / 1000),
  LOOPSCOPE_SPOOL_WORKERS: z.coerce.number().int().positive().max(64).optional(),
  LOOPSCOPE_HOLD_MB: z.coerce.number().int().min(0).default(1024),
  LOOPSCOPE_RETENTION_SWEEP_MINUTES: z.coerce.number().int().min(0).max(10_080).default(15),
  LOOPSCOPE_DASHBOARD_PASSWORD: z
    .string()
    .min(12, 'LOOPSCOPE_DASHBOARD_PASSWORD must be at least 12 characters')
    .optional(),
  LOOPSCOPE_WEBHOOK_ALLOW: z.string().optional(),
  LOOPSCOPE_ALERT_KEY: z
    .string()
    .regex(
      /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9_-]{43})$/,
      'LOOPSCOPE_ALERT_KEY must be 32 bytes as 64 hex digits or 43 base64url characters',
    )
    .optional(),
  LOOPSCOPE_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  LOOPSCOPE_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(10),
});

export interface AlertConfig {
  /** Host names webhooks may post to; null: any (LOOPSCOPE_WEBHOOK_ALLOW unset). */
  webhookAllow: string[] | null;
  /** The key webhook secrets are sealed under; unset: a key file in the data folder. */
  keyText: string | undefined;
  timeoutMs: number;
  maxAttempts: number;
  /** The first retry's delay; each next one doubles it (with jitter), up to an hour. */
  baseDelayMs: number;
}

export interface ServerConfig {
  port: number;
  /** OTLP/gRPC's port; null when it is off. */
  grpcPort: number | null;
  /** Whether LOOPSCOPE_GRPC_PORT was set: a default port that is taken is skipped, a chosen one is not. */
  grpcPortChosen: boolean;
  /** What one client address may hold of the gRPC port. */
  grpc: Pick<GrpcDoorLimits, 'connectionsPerAddress' | 'callsPerAddress'>;
  host: string;
  databaseUrl: string | undefined;
  /** A standby of DATABASE_URL's database the dashboard reads from (server/read-replica.ts). */
  readDatabaseUrl: string | undefined;
  dataDir: string;
  initApiKey: string | undefined;
  pricesFile: string;
  settingsFile: string | undefined;
  maxBodyBytes: number;
  /** A body must arrive whole within this (0: no deadline) ... */
  bodyTimeoutMs: number;
  /** ... and at least this fast after its first second (0: no minimum). */
  bodyMinBytesPerSecond: number;
  ingest: AdmissionLimits;
  /** Runs waiting to be derived past which ingest answers 429 until derivation catches up. */
  deriveBacklog: number;
  /** The bound of accepted requests waiting to be stored, past which ingest answers 429. */
  spool: SpoolLimits;
  /** Workers expanding the spool into spans (PGlite: 1, one request per transaction). */
  spoolWorkers: number;
  /**
   * Bytes of requests held on disk (`<data dir>/held`) while a Postgres server cannot answer;
   * 0: none, the door answers 503 meanwhile. PGlite never is away, so it holds nothing.
   */
  holdBytes: number;
  /** How often this server sweeps runs past their project's retention; null: never. */
  retentionSweepMs: number | null;
  /** Null: the dashboard is open, which it only is on loopback. */
  dashboardPassword: string | null;
  /** Where people reach the dashboard, when not at the address it listens on (a proxy). */
  publicUrl: string | null;
  alerts: AlertConfig;
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
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new Error(
      'Invalid setting DATABASE_READ_URL: it names a standby of DATABASE_URL’s database; set DATABASE_URL too',
    );
  }
  // The work at the door is a decode and one spool insert: on PGlite too, several requests may be
  // at it (their inserts queue on its thread between the workers' one-request transactions), and
  // a burst of exporters may wait its turn, bounded by LOOPSCOPE_INGEST_MAX_WAIT_MS. A place
  // holds its body only once its key is authenticated and admitted, and every body held counts
  // against LOOPSCOPE_INGEST_BODY_MB: that bounds memory, so the places can be many (a burst of
  // exporters uploads side by side; 16 × the concurrency refused one on this machine).
  const concurrency = e.LOOPSCOPE_INGEST_CONCURRENCY ?? 8;
  return {
    port: e.PORT,
    grpcPort:
      e.LOOPSCOPE_GRPC_PORT === 'off' || e.LOOPSCOPE_GRPC_PORT === 0 ? null : e.LOOPSCOPE_GRPC_PORT,
    grpcPortChosen: set.LOOPSCOPE_GRPC_PORT !== undefined,
    grpc: {
      connectionsPerAddress: e.LOOPSCOPE_GRPC_CONNECTIONS_PER_ADDRESS,
      callsPerAddress: e.LOOPSCOPE_GRPC_CALLS_PER_ADDRESS,
    },
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    readDatabaseUrl: e.DATABASE_READ_URL,
    dataDir: path.resolve(root, e.LOOPSCOPE_DATA_DIR),
    initApiKey: e.LOOPSCOPE_INIT_API_KEY,
    pricesFile: path.resolve(root, e.LOOPSCOPE_PRICES_FILE ?? 'prices.json'),
    settingsFile: e.LOOPSCOPE_CONFIG ? path.resolve(root, e.LOOPSCOPE_CONFIG) : undefined,
    maxBodyBytes: e.LOOPSCOPE_MAX_BODY_BYTES,
    bodyTimeoutMs: e.LOOPSCOPE_BODY_TIMEOUT_MS,
    bodyMinBytesPerSecond: e.LOOPSCOPE_BODY_MIN_RATE,
    ingest: admissionLimits(concurrency, e.LOOPSCOPE_INGEST_QUEUE ?? 64 * concurrency, {
      perProject: e.LOOPSCOPE_INGEST_PER_PROJECT,
      perKey: e.LOOPSCOPE_INGEST_PER_KEY,
      maxWaitMs: e.LOOPSCOPE_INGEST_MAX_WAIT_MS,
      bodyBytes: e.LOOPSCOPE_INGEST_BODY_MB * 1024 * 1024,
    }),
    deriveBacklog: e.LOOPSCOPE_DERIVE_BACKLOG,
    spool: {
      maxRequests: e.LOOPSCOPE_SPOOL_MAX_REQUESTS,
      maxBytes: e.LOOPSCOPE_SPOOL_MAX_MB * 1024 * 1024,
      maxAgeMs: e.LOOPSCOPE_SPOOL_MAX_AGE_SECONDS * 1000,
    },
    spoolWorkers: e.LOOPSCOPE_SPOOL_WORKERS ?? (e.DATABASE_URL ? 4 : 1),
    holdBytes: e.DATABASE_URL ? e.LOOPSCOPE_HOLD_MB * 1024 * 1024 : 0,
    retentionSweepMs:
      e.LOOPSCOPE_RETENTION_SWEEP_MINUTES === 0
        ? null
        : e.LOOPSCOPE_RETENTION_SWEEP_MINUTES * 60_000,
    dashboardPassword: dashboardDoor(e.HOST, e.LOOPSCOPE_DASHBOARD_PASSWORD).password,
    publicUrl: e.LOOPSCOPE_PUBLIC_URL ?? null,
    alerts: {
      webhookAllow: parseWebhookAllow(e.LOOPSCOPE_WEBHOOK_ALLOW),
      keyText: e.LOOPSCOPE_ALERT_KEY,
      timeoutMs: e.LOOPSCOPE_WEBHOOK_TIMEOUT_MS,
      maxAttempts: e.LOOPSCOPE_WEBHOOK_MAX_ATTEMPTS,
      baseDelayMs: 5_000,
    },
  };
}

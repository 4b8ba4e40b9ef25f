import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { postgresClient } from './client';
import type { DatabaseHandle } from './client';

// Beside this file; spelled without `new URL('./migrations', …)`, which bundlers take for an asset.
export const MIGRATIONS_FOLDER = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
);

// Any number of servers may start at once against one Postgres: one migrates, the others wait.
const MIGRATION_LOCK = 7_164_529_301;

/** Applies every migration not yet applied; `folder` only for tests of an upgrade. */
export async function migrateDatabase(
  handle: DatabaseHandle,
  folder = MIGRATIONS_FOLDER,
): Promise<void> {
  const config = { migrationsFolder: folder };
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase, config);
    return;
  }
  if (!handle.url) throw new Error('A Postgres handle without a URL cannot be migrated');
  // One connection, so the session-level lock and the migration share it.
  const client = postgresClient(handle.url, 1);
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzle({ client }), config);
  } finally {
    await client.end({ timeout: 5 });
  }
}

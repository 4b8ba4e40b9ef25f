// Fresh databases for tests: PGlite in memory, and a new database on the Postgres server
// (TEST_DATABASE_URL, default the local server) that is dropped when the test file ends.
import { randomBytes } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import postgres from 'postgres';
import { z } from 'zod';
import { openDatabase } from './client';
import type { DatabaseHandle } from './client';
import { migrateDatabase } from './migrate';
import { queryRows } from './sql';
import type { Executor } from './sql';

export const TEST_DATABASE_KINDS = ['pglite', 'postgres'] as const;
export type TestDatabaseKind = (typeof TEST_DATABASE_KINDS)[number];

const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** `migrationsFolder` gives a database as an older version left it (tests of an upgrade). */
export async function createTestDatabase(
  kind: TestDatabaseKind,
  migrationsFolder?: string,
): Promise<DatabaseHandle> {
  if (kind === 'pglite') {
    const handle = await openDatabase({});
    await migrateDatabase(handle, migrationsFolder);
    return handle;
  }
  const name = `loopscope_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), maxConnections: 5 });
  await migrateDatabase(handle, migrationsFolder);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Rows of an ad hoc query in a test, as the driver returns them (tests assert on them). */
export function rawRows(executor: Executor, query: SQL): Promise<Record<string, unknown>[]> {
  return queryRows(executor, query, z.record(z.string(), z.unknown()));
}

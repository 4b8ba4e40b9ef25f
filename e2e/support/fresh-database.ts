// A database of its own for a spawned server: a PGlite folder, or a new database on the Postgres
// server (TEST_DATABASE_URL) that `drop` removes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type DatabaseKind = 'pglite' | 'postgres';

export interface FreshDatabase {
  /** The server's environment for it: LOOPSCOPE_DATA_DIR or DATABASE_URL. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

export async function freshDatabase(kind: DatabaseKind, label: string): Promise<FreshDatabase> {
  if (kind === 'pglite') {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), `loopscope-${label}-`)), 'data');
    return { env: { LOOPSCOPE_DATA_DIR: dataDir }, drop: async () => {} };
  }
  const name = `loopscope_${label.replace(/\W/g, '_')}_${process.pid}_${Date.now()}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      const dropper = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { generateApiKey, hashApiKey, keyPrefix, sameHash } from '../lib/door/api-key';
import { AppError } from '../lib/app-error';
import type { Executor } from './sql';
import { apiKeys, projects } from './schema';

export async function ensureProject(db: Executor, name: string): Promise<string> {
  await db.insert(projects).values({ name }).onConflictDoNothing({ target: projects.name });
  const [row] = await db.select({ id: projects.id }).from(projects).where(eq(projects.name, name));
  if (!row) throw new Error(`Project ${name} could not be created`);
  return row.id;
}

/** Sets how many days the project keeps its runs; false when there is no such project. */
export async function setRetentionDays(db: Executor, name: string, days: number): Promise<boolean> {
  const rows = await db
    .update(projects)
    .set({ retentionDays: days })
    .where(eq(projects.name, name))
    .returning({ id: projects.id });
  return rows.length > 0;
}

export async function createApiKey(
  db: Executor,
  projectId: string,
  options: { name?: string; key?: string } = {},
): Promise<{ id: string; key: string; prefix: string }> {
  const key = options.key ?? generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      projectId,
      name: options.name ?? null,
      prefix: keyPrefix(key),
      keyHash: hashApiKey(key),
    })
    .returning({ id: apiKeys.id });
  if (!row) throw new Error('The key could not be stored');
  return { id: row.id, key, prefix: keyPrefix(key) };
}

/** What a valid key opens: its project, and the key itself (for per-key limits). */
export interface KeyScope {
  projectId: string;
  keyId: string;
}

/** The project a key belongs to, or null for an unknown or revoked key. */
export async function projectForKey(db: Executor, key: string): Promise<string | null> {
  return (await keyScope(db, key))?.projectId ?? null;
}

/**
 * The one check of an API key, for ingest and the read API alike: the scope of `key` (as the
 * request carried it), or 401 saying what is wrong.
 */
export async function authenticateKey(db: Executor, key: string | null): Promise<KeyScope> {
  if (!key) throw missingKey();
  const scope = await keyScope(db, key);
  if (!scope) throw new AppError('unauthorized', 'the API key is unknown or revoked');
  return scope;
}

/** A request without a key: 401 before anything else is done for it. */
export function missingKey(): AppError {
  return new AppError('unauthorized', 'send Authorization: Bearer <project API key>');
}

async function keyScope(db: Executor, key: string): Promise<KeyScope | null> {
  const hash = hashApiKey(key);
  const [row] = await db
    .select({ id: apiKeys.id, projectId: apiKeys.projectId, keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)));
  return row && sameHash(row.keyHash, hash) ? { projectId: row.projectId, keyId: row.id } : null;
}

/** Adds the key to project `name` unless it is stored already (start-up with a preset key). */
export async function ensureApiKey(
  db: Executor,
  projectName: string,
  key: string,
): Promise<boolean> {
  const projectId = await ensureProject(db, projectName);
  const added = await db
    .insert(apiKeys)
    .values({
      projectId,
      name: 'LOOPSCOPE_INIT_API_KEY',
      prefix: keyPrefix(key),
      keyHash: hashApiKey(key),
    })
    .onConflictDoNothing({ target: apiKeys.keyHash })
    .returning({ id: apiKeys.id });
  return added.length > 0;
}

export async function countApiKeys(db: Executor): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
  return Number(row?.n ?? 0);
}

export interface ApiKeyListing {
  id: string;
  project: string;
  name: string | null;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export async function listApiKeys(db: Executor): Promise<ApiKeyListing[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      project: projects.name,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .innerJoin(projects, eq(projects.id, apiKeys.projectId))
    .orderBy(projects.name, apiKeys.createdAt);
  // Keys made before prefixes were cut short stored ten characters: show the short one.
  return rows.map((row) => ({ ...row, prefix: keyPrefix(row.prefix) }));
}

/** Revokes by key id or by the shown prefix; returns how many keys it revoked. */
export async function revokeApiKey(db: Executor, idOrPrefix: string): Promise<number> {
  const isUuid = /^[0-9a-f-]{36}$/i.test(idOrPrefix);
  const active = await db
    .select({ id: apiKeys.id, prefix: apiKeys.prefix })
    .from(apiKeys)
    .where(isNull(apiKeys.revokedAt));
  const ids = active
    .filter((k) =>
      isUuid ? k.id === idOrPrefix : k.prefix === idOrPrefix || keyPrefix(k.prefix) === idOrPrefix,
    )
    .map((k) => k.id);
  if (ids.length === 0) return 0;
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(inArray(apiKeys.id, ids), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length;
}

/**
 * Whether a request let in with key `keyId` at `atMs` stands: the key is in this database and was
 * not revoked before then. `unknown` for a key this database never had (another database's).
 */
export async function keyStoodAt(
  db: Executor,
  keyId: string,
  atMs: number,
): Promise<'stood' | 'revoked' | 'unknown'> {
  const [row] = await db
    .select({ revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId));
  if (!row) return 'unknown';
  return row.revokedAt === null || row.revokedAt.getTime() > atMs ? 'stood' : 'revoked';
}

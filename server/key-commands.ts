// Key and project management, the same whether the CLI opens the database itself or asks the running server
// (which it must when the server holds the PGlite folder).
import { z } from 'zod';
import type { Executor } from '../db/sql';
import { projectName, safeText } from '../lib/filters';
import {
  createApiKey,
  ensureProject,
  listApiKeys,
  revokeApiKey,
  setRetentionDays,
} from '../db/projects';
import { AppError } from '../lib/app-error';

/** The longest retention one can set: 100 years, where a timestamp's arithmetic stays exact. */
export const MAX_RETENTION_DAYS = 36_500;

export const keyCommand = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('create'),
    project: projectName,
    name: safeText().max(200).optional(),
  }),
  z.object({ action: z.literal('list') }),
  z.object({ action: z.literal('revoke'), id: safeText().min(1).max(200) }),
  z.object({
    action: z.literal('set-retention'),
    project: projectName,
    retentionDays: z.number().int().min(1).max(MAX_RETENTION_DAYS),
  }),
]);
export type KeyCommand = z.infer<typeof keyCommand>;

export type KeyCommandResult =
  | { action: 'create'; project: string; id: string; prefix: string; key: string }
  | {
      action: 'list';
      keys: {
        id: string;
        project: string;
        name: string | null;
        prefix: string;
        createdAt: string;
        revokedAt: string | null;
      }[];
    }
  | { action: 'revoke'; revoked: number }
  | { action: 'set-retention'; project: string; retentionDays: number };

export async function runKeyCommand(db: Executor, command: KeyCommand): Promise<KeyCommandResult> {
  switch (command.action) {
    case 'create': {
      const projectId = await ensureProject(db, command.project);
      const created = await createApiKey(db, projectId, { name: command.name });
      return { action: 'create', project: command.project, ...created };
    }
    case 'list': {
      const keys = await listApiKeys(db);
      return {
        action: 'list',
        keys: keys.map((k) => ({
          ...k,
          createdAt: new Date(k.createdAt).toISOString(),
          revokedAt: k.revokedAt ? new Date(k.revokedAt).toISOString() : null,
        })),
      };
    }
    case 'revoke':
      return { action: 'revoke', revoked: await revokeApiKey(db, command.id) };
    case 'set-retention':
      if (!(await setRetentionDays(db, command.project, command.retentionDays))) {
        throw new AppError('not_found', `no project "${command.project}"`);
      }
      return {
        action: 'set-retention',
        project: command.project,
        retentionDays: command.retentionDays,
      };
  }
}

export function formatKeyResult(result: KeyCommandResult): string {
  switch (result.action) {
    case 'create':
      return [
        `Created key ${result.prefix}… (id ${result.id}) for project "${result.project}".`,
        'It is shown only this once:',
        result.key,
      ].join('\n');
    case 'list':
      if (result.keys.length === 0) return 'No keys.';
      return result.keys
        .map((k) =>
          [
            k.project,
            k.prefix + '…',
            k.id,
            k.name ?? '',
            k.createdAt,
            k.revokedAt ? `revoked ${k.revokedAt}` : 'active',
          ].join('\t'),
        )
        .join('\n');
    case 'revoke':
      return result.revoked === 0 ? 'No active key matched.' : `Revoked ${result.revoked} key(s).`;
    case 'set-retention':
      return `Project "${result.project}" keeps its runs for ${result.retentionDays} day(s).`;
  }
}

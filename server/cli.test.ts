import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { sql } from 'drizzle-orm';
import { createApiKey, ensureProject, projectForKey } from '../db/projects';
import { rawRows } from '../db/test-database';

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), 'loopscope-cli-'));
const cli = (...args: string[]) =>
  run(process.execPath, [path.join(__dirname, '..', 'bin', 'loopscope.mjs'), ...args], {
    env: { ...process.env, LOOPSCOPE_DATA_DIR: dataDir, DATABASE_URL: '' },
  });

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('loopscope projects set', () => {
  it('sets a project’s retention days, and refuses what is not a number of days', async () => {
    const handle = await openDatabase({ dataDir });
    try {
      await migrateDatabase(handle);
      await ensureProject(handle.db, 'team-r');
    } finally {
      await handle.close();
    }
    const set = await cli('projects', 'set', 'team-r', '--retention-days', '7');
    expect(set.stdout).toContain('"team-r" keeps its runs for 7 day(s)');
    const stored = async () => {
      const reopened = await openDatabase({ dataDir });
      try {
        const rows = await rawRows(
          reopened.db,
          sql`select retention_days from projects where name = 'team-r'`,
        );
        return rows[0]?.retention_days;
      } finally {
        await reopened.close();
      }
    };
    expect(await stored()).toBe(7);
    for (const bad of ['0', '-3', '2.5', 'week', '36501']) {
      await expect(
        cli('projects', 'set', 'team-r', `--retention-days=${bad}`),
      ).rejects.toMatchObject({ code: 2 });
    }
    await expect(cli('projects', 'set', 'nobody', '--retention-days', '5')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no project "nobody"'),
    });
    expect(await stored()).toBe(7);
  });
});

describe('loopscope keys', () => {
  it('creates a key (printed on the last line), lists it, revokes it', async () => {
    const created = await cli('keys', 'create', '--project', 'team-a', '--name', 'ci');
    const key = created.stdout.trim().split('\n').at(-1) ?? '';
    expect(key).toMatch(/^lsk_[A-Za-z0-9_-]{32}$/);

    const listed = await cli('keys', 'list');
    expect(listed.stdout).toContain('team-a');
    expect(listed.stdout).toContain(`${key.slice(0, 8)}…`);
    expect(listed.stdout).not.toContain(key.slice(0, 9));

    const check = async () => {
      const handle = await openDatabase({ dataDir });
      try {
        return await projectForKey(handle.db, key);
      } finally {
        await handle.close();
      }
    };
    expect(await check()).not.toBeNull();
    const revoked = await cli('keys', 'revoke', key.slice(0, 8));
    expect(revoked.stdout).toContain('Revoked 1 key');
    expect(await check()).toBeNull();
  });

  it('shows a short key chosen by hand by its first four characters only', async () => {
    const handle = await openDatabase({ dataDir });
    try {
      await createApiKey(handle.db, await ensureProject(handle.db, 'team-b'), {
        key: 'my-short-key-123456',
      });
    } finally {
      await handle.close();
    }
    const listed = await cli('keys', 'list');
    expect(listed.stdout).toContain('my-s…');
    expect(listed.stdout).not.toContain('my-sh');
  });

  it('explains its usage on a wrong command', async () => {
    await expect(cli('keys', 'create')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--project'),
    });
  });
});

describe('loopscope start', () => {
  const start = (env: Record<string, string>) =>
    run(process.execPath, [path.join(__dirname, '..', 'bin', 'loopscope.mjs'), 'start'], {
      env: { ...process.env, LOOPSCOPE_DATA_DIR: dataDir, DATABASE_URL: '', ...env },
    });

  it('refuses a setting that breaks its rule before any build, saying which rule and that it stopped', async () => {
    for (const [env, rule] of [
      [{ HOST: '0.0.0.0' }, /set LOOPSCOPE_DASHBOARD_PASSWORD \(at least 12 characters\)/],
      [
        { HOST: '0.0.0.0', LOOPSCOPE_DASHBOARD_PASSWORD: 'short' },
        /LOOPSCOPE_DASHBOARD_PASSWORD must be at least 12 characters/,
      ],
      [{ LOOPSCOPE_GRPC_PORT: 'on' }, /Invalid setting LOOPSCOPE_GRPC_PORT/],
    ] as const) {
      const failed = await start(env).catch((error: unknown) => error);
      expect(failed, JSON.stringify(env)).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(rule) as unknown,
      });
      const { stdout, stderr } = failed as { stdout: string; stderr: string };
      expect(stderr).toMatch(/\[loopscope\] stopped\n$/);
      expect(stdout).not.toMatch(/build/i);
    }
  });
});

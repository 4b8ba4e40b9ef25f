import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { migrateDatabase } from './migrate';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'loopscope-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const openFromAnotherProcess = (dataDir: string) =>
  run(process.execPath, [
    '--import',
    'tsx',
    '--eval',
    `import { openDatabase } from ${JSON.stringify(path.join(__dirname, 'client.ts'))};
     const handle = await openDatabase({ dataDir: ${JSON.stringify(dataDir)} });
     await handle.close();
     console.log('opened');`,
  ]);

describe('a PGlite data folder', () => {
  it('belongs to one process: a second one fails fast and says why', async () => {
    const dataDir = path.join(dir, 'data');
    const handle = await openDatabase({ dataDir });
    try {
      await migrateDatabase(handle);
      await expect(openFromAnotherProcess(dataDir)).rejects.toMatchObject({
        stderr: expect.stringMatching(/in use by another Loopscope process \(pid \d+\)/),
      });
    } finally {
      await handle.close();
    }
    // released on close: the other process may open it now
    expect((await openFromAnotherProcess(dataDir)).stdout).toContain('opened');
  });

  it('left locked by a process that died (kill -9) is taken over, with its data intact', async () => {
    const dataDir = path.join(dir, 'crashed');
    const first = await openDatabase({ dataDir });
    await migrateDatabase(first);
    await first.db.execute(sql`insert into projects (name) values ('survivor')`);
    await first.close();
    // a lock file naming a pid that no longer runs, as kill -9 leaves it
    const gone = spawnSync(process.execPath, ['--eval', 'process.exit(0)']).pid;
    writeFileSync(path.join(dataDir, 'loopscope.pid'), String(gone));
    const again = await openDatabase({ dataDir });
    try {
      const rows = await again.db.execute(sql`select name from projects`);
      expect(JSON.stringify(rows)).toContain('survivor');
    } finally {
      await again.close();
    }
  });
});

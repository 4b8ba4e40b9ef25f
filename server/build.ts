// `npm start` builds when there is no build, or when the sources changed since the last one, so
// a fresh clone and a `git pull` both start with what is checked out.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SOURCE_DIRS = [
  'app',
  'components',
  'db',
  'ingest',
  'lib',
  'server',
  'trajectory',
  'kit',
  'samples',
  'public',
];
const SOURCE_FILES = [
  'next.config.ts',
  'proxy.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

export function sourceFingerprint(root: string): string {
  const hash = createHash('sha256');
  const visit = (file: string) => {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file).sort()) {
        if (entry === 'node_modules' || entry.startsWith('.')) continue;
        visit(path.join(file, entry));
      }
      return;
    }
    if (/\.test\.tsx?$/.test(file)) return;
    hash.update(`${path.relative(root, file)}\0${stat.size}\0${stat.mtimeMs}\n`);
  };
  for (const name of [...SOURCE_DIRS, ...SOURCE_FILES]) visit(path.join(root, name));
  return hash.digest('hex');
}

export function buildIsCurrent(root: string): boolean {
  const stamp = path.join(root, '.next', 'loopscope-source');
  if (!existsSync(path.join(root, '.next', 'BUILD_ID')) || !existsSync(stamp)) return false;
  return readFileSync(stamp, 'utf8') === sourceFingerprint(root);
}

export function build(root: string): void {
  const fingerprint = sourceFingerprint(root);
  const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
  const result = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('next build failed (see above)');
  writeFileSync(path.join(root, '.next', 'loopscope-source'), fingerprint);
}

export function ensureBuild(root: string, log: (message: string) => void): void {
  if (buildIsCurrent(root)) return;
  log('Building the dashboard (first start, or the sources changed)…');
  build(root);
}

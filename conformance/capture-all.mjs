// `npm run conformance:capture [-- <framework> ...]`: installs each framework project with npm ci
// (its own lock file, its own node_modules) and runs its scenarios, rewriting
// conformance/captures/. Not part of npm test, which replays the committed captures.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const frameworksDir = join(dirname(fileURLToPath(import.meta.url)), 'frameworks');
const wanted = process.argv.slice(2);
const projects = readdirSync(frameworksDir).filter(
  (name) => !wanted.length || wanted.includes(name),
);
const failed = [];
for (const project of projects) {
  const cwd = join(frameworksDir, project);
  console.log(`\n== ${project}`);
  const steps = [
    ['npm', ['ci', '--no-audit', '--no-fund']],
    [process.execPath, ['run.mjs']],
  ];
  for (const [command, args] of steps) {
    const { status } = spawnSync(command, args, { cwd, stdio: 'inherit' });
    if (status !== 0) {
      failed.push(`${project}: ${[command, ...args].join(' ')} exited ${status}`);
      break;
    }
  }
}
if (failed.length) {
  console.error(`\nfailed:\n${failed.join('\n')}`);
  process.exitCode = 1;
}

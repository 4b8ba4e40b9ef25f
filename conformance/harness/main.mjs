// The entry point every framework's run.mjs shares: `node run.mjs` captures its scenarios,
// `node run.mjs --only a b` some of them, `node run.mjs <scenario>` runs one (the child process
// the capture starts). Imported rather than run (the drift test reads CAPTURES), it does nothing.
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureFramework } from './capture.mjs';

/**
 * @param {ImportMeta} meta the calling run.mjs's import.meta
 * @param {{ runScenario: (name: string) => Promise<void>, captures: Array<object> }} options
 *   captures: captureFramework's options without projectDir, script and only
 */
export async function captureOrRun(meta, { runScenario, captures }) {
  const script = fileURLToPath(meta.url);
  if (!process.argv[1] || realpathSync(process.argv[1]) !== realpathSync(script)) return;
  const [first, ...rest] = process.argv.slice(2);
  if (first && first !== '--only') {
    await runScenario(first);
    return;
  }
  for (const capture of captures) {
    await captureFramework({ ...capture, projectDir: dirname(script), script, only: rest });
  }
}

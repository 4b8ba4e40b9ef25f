// Runs each scenario of a framework as its own Node process (a user's script, configured only
// through the standard OTEL_EXPORTER_OTLP_* variables and LOOPSCOPE_API_KEY), records what its
// exporter sent, and writes conformance/captures/<framework>/<scenario>/ with capture.json.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { RECEIVER_KEY, startReceiver } from './receiver.mjs';

const CAPTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'captures');
const STORE_GZIPPED_OVER = 20 * 1024;

export function packageVersions(projectDir, names) {
  return Object.fromEntries(
    names.map((name) => {
      const manifest = JSON.parse(
        readFileSync(join(projectDir, 'node_modules', name, 'package.json'), 'utf8'),
      );
      return [name, manifest.version];
    }),
  );
}

function runChild(script, scenario, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, scenario], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

/**
 * @param {{ framework: string, projectDir: string, script: string, packages: string[],
 *   env?: Record<string, string> | ((receiver: { url: string }) => Record<string, string>), scenarios: Array<{ name: string, note: string, expect: object,
 *   env?: Record<string, string> }>, only?: string[] }} options
 */
export async function captureFramework(options) {
  const receiver = await startReceiver();
  const packages = packageVersions(options.projectDir, options.packages);
  let failed = 0;
  try {
    for (const scenario of options.scenarios) {
      if (options.only?.length && !options.only.includes(scenario.name)) continue;
      const code = await runChild(options.script, scenario.name, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        PORT: String(receiver.port),
        LOOPSCOPE_API_KEY: RECEIVER_KEY,
        OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer%20${RECEIVER_KEY}`,
        OTEL_SERVICE_NAME: `conformance-${options.framework}`,
        ...(typeof options.env === 'function' ? options.env(receiver) : options.env),
        ...scenario.env,
      });
      const requests = receiver.drain();
      if (code !== 0 || requests.length === 0 || requests.some((r) => !r.authorized)) {
        console.error(
          `${options.framework}/${scenario.name}: exit ${code}, ${requests.length} requests` +
            (requests.some((r) => !r.authorized) ? ', some without the bearer key' : ''),
        );
        failed += 1;
        continue;
      }
      writeCapture(options.framework, packages, scenario, requests);
      console.log(`${options.framework}/${scenario.name}: ${requests.length} requests`);
    }
  } finally {
    await receiver.close();
  }
  if (failed) process.exitCode = 1;
}

function writeCapture(framework, packages, scenario, requests) {
  const dir = join(CAPTURES, framework, scenario.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = requests.map((request, i) => {
    const ext = String(request.contentType).includes('json') ? 'json' : 'bin';
    let file = `${String(i + 1).padStart(3, '0')}.${ext}`;
    let body = request.body;
    if (body.length > STORE_GZIPPED_OVER && request.contentEncoding === null) {
      file += '.gz';
      body = gzipSync(body, { level: 9 });
    }
    writeFileSync(join(dir, file), body);
    return { file, contentType: request.contentType, contentEncoding: request.contentEncoding };
  });
  const capture = {
    framework,
    packages,
    scenario: scenario.name,
    source: 'captured',
    note: scenario.note,
    requests: files,
    expect: scenario.expect,
  };
  writeFileSync(join(dir, 'capture.json'), JSON.stringify(capture, null, 2) + '\n');
}

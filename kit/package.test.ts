// The kit as a user installs it: `npm pack` of kit/, the tarball installed into a fresh project
// outside the repository with the OpenTelemetry SDK, the README's "Use" snippet compiled there
// against the package's own type declarations and run with plain Node, through the real OTLP
// exporter, into a server on a fresh database. Offline: the scratch project's lockfile is cut
// from the repository's own (same versions, same integrity), so `npm ci --offline` takes every
// package from the npm cache that the repository's `npm ci` filled.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import { snippetOf } from '@/e2e/support/readme-snippet';
import type { RunSummary, StepJson } from '@/lib/api-types';
import { canonicalActionHash } from '@/trajectory/canonical-hash';

const run = promisify(execFile);
const KIT = fileURLToPath(new URL('.', import.meta.url));
const ROOT = path.dirname(KIT);
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
/** What a project that uses the kit with the OTLP protobuf exporter installs beside it. */
const PEERS = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@types/node',
];

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [field: string]: unknown;
}

/** Where Node (and npm's lockfile) finds `name` from the package installed at `from`. */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | null {
  for (let at = from; ; at = at.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
    const candidate = `${at ? `${at}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!at) return null;
  }
}

/** The repository's lockfile entries for `names` and everything they need, flags dropped. */
function lockClosure(names: readonly string[]): Record<string, LockEntry> {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const closure: Record<string, LockEntry> = {};
  const visit = (from: string, name: string, optional: boolean) => {
    const at = locate(lock.packages, from, name);
    if (!at) {
      if (optional) return;
      throw new Error(`package-lock.json has no ${name} for ${from || 'the root'}`);
    }
    if (closure[at]) return;
    const { dev: _d, optional: _o, devOptional: _do, peer: _p, ...entry } = lock.packages[at]!;
    closure[at] = entry;
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(at, dep, false);
    for (const dep of Object.keys(entry.peerDependencies ?? {})) visit(at, dep, true);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(at, dep, true);
  };
  for (const name of names) visit('', name, false);
  return closure;
}

async function api<T>(server: TestServer, route: string): Promise<T> {
  const response = await fetch(`${server.url}${route}`, {
    headers: { authorization: `Bearer ${server.key}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

describe('the kit as an installed package', () => {
  let server: TestServer;
  let project: string;
  let packed: { filename: string; integrity: string; files: { path: string }[] };

  beforeAll(async () => {
    project = mkdtempSync(path.join(tmpdir(), 'loopscope-kit-project-'));
    const [packing, started] = await Promise.all([
      run('npm', ['pack', '--json', '--pack-destination', project], { cwd: KIT }),
      startTestServer('pglite'),
    ]);
    server = started;
    // The prepack build logs to stdout before npm's JSON.
    const json = packing.stdout.slice(packing.stdout.search(/^\[/m));
    packed = (JSON.parse(json) as (typeof packed)[])[0]!;

    const closure = lockClosure(PEERS);
    const version = (name: string) => closure[`node_modules/${name}`]!.version!;
    const kitManifest = JSON.parse(readFileSync(path.join(KIT, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      peerDependencies: Record<string, string>;
      engines: Record<string, string>;
    };
    const tarball = `file:${packed.filename}`;
    const dependencies = {
      [kitManifest.name]: tarball,
      ...Object.fromEntries(PEERS.map((name) => [name, version(name)])),
    };
    const manifest = { name: 'kit-user', version: '1.0.0', type: 'module', dependencies };
    const lockfile = {
      name: manifest.name,
      version: manifest.version,
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: manifest.name, version: manifest.version, dependencies },
        [`node_modules/${kitManifest.name}`]: {
          version: kitManifest.version,
          resolved: tarball,
          integrity: packed.integrity,
          peerDependencies: kitManifest.peerDependencies,
          engines: kitManifest.engines,
        },
        ...closure,
      },
    };
    writeFileSync(path.join(project, 'package.json'), JSON.stringify(manifest, null, 2));
    writeFileSync(path.join(project, 'package-lock.json'), JSON.stringify(lockfile, null, 2));
    await run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: project,
      timeout: 60_000,
    });
  });

  afterAll(async () => {
    if (project) rmSync(project, { recursive: true, force: true });
    await server?.close();
  });

  it('packs compiled JavaScript and declarations, and no source, test or server code', () => {
    const files = packed.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'dist/esm/kit/index.js',
        'dist/esm/kit/index.d.ts',
        'dist/cjs/kit/index.js',
        'dist/cjs/kit/index.d.ts',
        'dist/esm/trajectory/canonical-hash.js',
      ]),
    );
    const unexpected = files.filter(
      (f) =>
        !['package.json', 'README.md', 'dist/cjs/package.json'].includes(f) &&
        !/^dist\/(esm|cjs)\/(kit|trajectory)\/[a-z-]+\.(js|d\.ts)$/.test(f),
    );
    expect(unexpected).toEqual([]);
    expect(files.some((f) => /test|ingest|db\/|server/.test(f))).toBe(false);
    const installed = JSON.parse(
      readFileSync(path.join(project, 'node_modules/@loopscope/kit/package.json'), 'utf8'),
    ) as { dependencies?: unknown; peerDependencies: Record<string, string> };
    expect(installed.dependencies).toBeUndefined();
    expect(Object.keys(installed.peerDependencies)).toEqual(['@opentelemetry/api']);
  });

  it('loads from CommonJS and ESM with the hash the server computes', async () => {
    const args = { path: 'src/app.ts', range: [1, 20] };
    writeFileSync(
      path.join(project, 'check.cjs'),
      `const kit = require('@loopscope/kit');\n` +
        `console.log(JSON.stringify({ hash: kit.canonicalActionHash('read_file', ${JSON.stringify(args)}), exports: Object.keys(kit).sort() }));\n`,
    );
    writeFileSync(
      path.join(project, 'check.mjs'),
      `import * as kit from '@loopscope/kit';\n` +
        `console.log(JSON.stringify({ hash: kit.canonicalActionHash('read_file', ${JSON.stringify(args)}), exports: Object.keys(kit).sort() }));\n`,
    );
    const load = async (file: string) => {
      const { stdout } = await run(process.execPath, [file], { cwd: project });
      return JSON.parse(stdout) as { hash: string; exports: string[] };
    };
    const [cjs, esm] = await Promise.all([load('check.cjs'), load('check.mjs')]);
    expect(cjs).toEqual(esm);
    expect(esm.hash).toBe(canonicalActionHash('read_file', args));
    expect(esm.exports).toEqual(expect.arrayContaining(['startRun', 'canonicalActionHash']));
  });

  it("type-checks the README's snippet against the package and runs it into Loopscope", async () => {
    const snippet = snippetOf(readFileSync(path.join(KIT, 'README.md'), 'utf8'), 'Use');
    expect(snippet).toContain("from '@loopscope/kit'");
    writeFileSync(path.join(project, 'loop.mts'), snippet);
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          types: ['node'],
        },
        files: ['loop.mts'],
      }),
    );
    await run(process.execPath, [TSC, '-p', project], { cwd: project }).catch((error: unknown) => {
      const { stdout } = error as { stdout?: string };
      throw new Error(`tsc failed on the README snippet:\n${stdout ?? String(error)}`);
    });

    const { stdout } = await run(process.execPath, ['loop.mjs'], {
      cwd: project,
      env: {
        ...process.env,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${server.url}/v1/traces`,
        LOOPSCOPE_API_KEY: server.key,
      },
      timeout: 30_000,
    });
    const runId = /run ([0-9a-f]{32}) ended: no_progress/.exec(stdout)?.[1];
    expect(runId, stdout).toBeDefined();

    await server.settle();
    const { run: summary } = await api<{ run: RunSummary }>(server, `/api/v1/runs/${runId}`);
    expect(summary).toMatchObject({
      agent: 'ops-agent',
      goal: 'Bring the orders service back up',
      exitReason: 'no_progress',
      exitCategory: 'no_progress',
      verification: 'contradicted',
      stepCount: 2,
      inputTokens: 4600,
      outputTokens: 160,
      flags: { repeat: { step: 2, of: 1 } },
    });
    const { steps } = await api<{ steps: StepJson[] }>(server, `/api/v1/runs/${runId}/steps`);
    expect(steps.map((s) => [s.index, s.action, s.verdict, s.signals])).toEqual([
      [1, 'restart_service', 'fail', []],
      [2, 'restart_service', 'fail', ['repeat']],
    ]);
    expect(steps[0]!.actionHash).toBe(
      canonicalActionHash('restart_service', { service: 'orders' }),
    );
  });
});

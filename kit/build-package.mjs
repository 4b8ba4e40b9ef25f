#!/usr/bin/env node
// Compiles the kit, and the trajectory/ modules it imports, into kit/dist: ESM and CommonJS, each
// with type declarations. The sources import each other without file extensions (the repo
// resolves them like a bundler); Node's ESM loader needs them, so the ESM output gets `.js` added
// to every relative specifier, checked against the files tsc wrote.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const KIT = path.dirname(fileURLToPath(import.meta.url));
const DIST = path.join(KIT, 'dist');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const CONFIG = path.join(KIT, 'tsconfig.build.json');

function tsc(...flags) {
  execFileSync(process.execPath, [TSC, '-p', CONFIG, ...flags], { stdio: 'inherit' });
}

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

const RELATIVE_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]*)\2/g;

function addExtensions(file) {
  const source = readFileSync(file, 'utf8');
  const rewritten = source.replace(RELATIVE_SPECIFIER, (whole, lead, quote, specifier) => {
    if (/\.(c|m)?js$/.test(specifier)) return whole;
    const base = path.resolve(path.dirname(file), specifier);
    const target = existsSync(`${base}.js`)
      ? `${specifier}.js`
      : existsSync(path.join(base, 'index.js'))
        ? `${specifier}/index.js`
        : null;
    if (!target) throw new Error(`${path.relative(KIT, file)}: no file for '${specifier}'`);
    return `${lead}${quote}${target}${quote}`;
  });
  if (rewritten !== source) writeFileSync(file, rewritten);
}

rmSync(DIST, { recursive: true, force: true });
tsc('--outDir', path.join(DIST, 'esm'));
for (const file of filesUnder(path.join(DIST, 'esm'))) {
  if (file.endsWith('.js') || file.endsWith('.d.ts')) addExtensions(file);
}
tsc(
  '--outDir',
  path.join(DIST, 'cjs'),
  '--module',
  'commonjs',
  '--moduleResolution',
  'node10',
  '--verbatimModuleSyntax',
  'false',
);
writeFileSync(path.join(DIST, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');

const emitted = filesUnder(DIST).map((f) => path.relative(DIST, f).split(path.sep).join('/'));
const outside = emitted.filter(
  (f) => !/^(esm|cjs)\/(kit|trajectory)\/|^cjs\/package\.json$/.test(f),
);
if (outside.length > 0) throw new Error(`unexpected files in the kit build: ${outside.join(', ')}`);
console.log(`kit built: ${emitted.length} files in ${path.relative(process.cwd(), DIST) || '.'}`);

// The kit promises harnesses one runtime dependency, @opentelemetry/api: follow its imports
// (and those of the trajectory/ modules it uses) and allow nothing else but Node's own.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const KIT = fileURLToPath(new URL('.', import.meta.url));

function packagesImportedFrom(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^(import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'/gm)) {
      const specifier = match[2] as string;
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      const base = path.resolve(path.dirname(file), specifier);
      const resolved = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => existsSync(f));
      if (!resolved) throw new Error(`${file}: cannot resolve ${specifier}`);
      visit(resolved);
    }
  };
  visit(entry);
  return packages;
}

it('needs nothing at runtime but @opentelemetry/api and Node built-ins', () => {
  const packages = [...packagesImportedFrom(path.join(KIT, 'index.ts'))];
  expect(packages.filter((p) => !p.startsWith('node:'))).toEqual(['@opentelemetry/api']);
});

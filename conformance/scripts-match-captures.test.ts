// A capture's truth is written by its framework's script when it is captured; the replay suite
// reads it from capture.json. This keeps the two from drifting apart: what each script says of a
// scenario today is what its committed capture says, and no capture is left without a script.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

interface ScriptScenario {
  name: string;
  note: string;
  expect: unknown;
}
interface ScriptCapture {
  framework: string;
  scenarios: ScriptScenario[];
}

const ROOT = import.meta.dirname;
const CAPTURES = join(ROOT, 'captures');
// Captured by conformance/python (Python frameworks), not by a run.mjs.
const PYTHON = /^python-/;

const scripts = readdirSync(join(ROOT, 'frameworks')).map((project) =>
  join(ROOT, 'frameworks', project, 'run.mjs'),
);

async function scriptCaptures(): Promise<ScriptCapture[]> {
  const loaded: ScriptCapture[] = [];
  for (const script of scripts) {
    const loadedScript = (await import(pathToFileURL(script).href)) as {
      CAPTURES: ScriptCapture[];
    };
    loaded.push(...loadedScript.CAPTURES);
  }
  return loaded;
}

describe('the framework scripts and the committed captures', () => {
  it('agree on every scenario: the same note and the same truth', async () => {
    const captures = await scriptCaptures();
    expect(captures.length).toBeGreaterThanOrEqual(scripts.length);
    for (const capture of captures) {
      for (const scenario of capture.scenarios) {
        const file = join(CAPTURES, capture.framework, scenario.name, 'capture.json');
        expect(existsSync(file), `${capture.framework}/${scenario.name} is captured`).toBe(true);
        const stored = JSON.parse(readFileSync(file, 'utf8')) as { note: string; expect: unknown };
        const where = `${capture.framework}/${scenario.name}`;
        expect(stored.note, `${where}: note`).toBe(scenario.note);
        // capture.json is JSON: compare the script's truth as JSON would carry it
        expect(stored.expect, `${where}: expect`).toEqual(
          JSON.parse(JSON.stringify(scenario.expect)),
        );
      }
    }
  });

  it('leave no capture without the script that made it', async () => {
    const made = new Set(
      (await scriptCaptures()).flatMap((c) => c.scenarios.map((s) => `${c.framework}/${s.name}`)),
    );
    const orphans = readdirSync(CAPTURES)
      .filter((framework) => !PYTHON.test(framework))
      .flatMap((framework) =>
        readdirSync(join(CAPTURES, framework))
          .filter((scenario) => existsSync(join(CAPTURES, framework, scenario, 'capture.json')))
          .map((scenario) => `${framework}/${scenario}`),
      )
      .filter((name) => !made.has(name));
    expect(orphans).toEqual([]);
  });
});

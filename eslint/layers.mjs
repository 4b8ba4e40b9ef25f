// The import direction (docs/architecture.md), whichever way an import is written: relative
// (`../db/x`) or through the `@/` alias. Each message names what to use instead. Tests and test
// helpers (`*.test.ts`, `test-*.ts`) may reach across layers to set up what they check.

/** An import of one of `folders`, relative or through `@/`. */
const folders = (names, message) => ({
  regex: `^(?:@/|(?:\\.\\./)+)(?:${names.join('|')})(?:/|$)`,
  message,
});
/** An import of one of `packages` (or a path inside one). */
const packages = (names, message) => ({
  regex: `^(?:${names.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})(?:/|$)`,
  message,
});

const FRAMEWORK = ['next', 'react', 'react-dom'];
const DATABASE = ['drizzle-orm', 'postgres', '@electric-sql/pglite'];
const ALL_FOLDERS = [
  'app',
  'components',
  'db',
  'derive',
  'ingest',
  'server',
  'lib',
  'kit',
  'samples',
  'bench',
  'e2e',
  'conformance',
];
const except = (...keep) => ALL_FOLDERS.filter((f) => !keep.includes(f));

export const LAYER_RULES = {
  'trajectory/**/*.ts': [
    packages(
      [...FRAMEWORK, ...DATABASE],
      'trajectory/ is the pure core: take plain data as arguments from ingest/, derive/ or db/.',
    ),
    folders(
      except(),
      'trajectory/ imports nothing of the app: move the shared part into trajectory/.',
    ),
  ],
  'components/**/*.{ts,tsx}': [
    packages(
      DATABASE,
      'components/ take props: read through a db/ read model in the page and pass plain data.',
    ),
    folders(
      ['db', 'server', 'ingest', 'derive'],
      'components/ take props: let the page call the db/ read model and pass plain data (shared shapes live in lib/api-types.ts).',
    ),
  ],
  'db/**/*.ts': [
    packages(FRAMEWORK, 'db/ knows nothing of pages: return plain data to app/.'),
    folders(
      ['app', 'components', 'server', 'ingest', 'derive', 'samples', 'kit'],
      'db/ is storage only: callers in ingest/, derive/ and app/ import db/, never the reverse (shared types live in trajectory/ or lib/).',
    ),
  ],
  'ingest/**/*.ts': [
    packages(FRAMEWORK, 'ingest/ knows nothing of pages: return plain data to app/.'),
    folders(
      ['app', 'components', 'server', 'derive', 'samples', 'kit'],
      'ingest/ turns OTLP into stored spans and marks; derivation is derive/’s (kick it through a callback such as afterCommit).',
    ),
  ],
  'derive/**/*.ts': [
    packages(FRAMEWORK, 'derive/ knows nothing of pages: return plain data to app/.'),
    folders(
      ['app', 'components', 'server', 'ingest', 'samples', 'kit'],
      'derive/ reads stored spans and their facts (trajectory/span-facts.ts), never ingest/ code.',
    ),
  ],
  'lib/**/*.ts': [
    packages(
      [...FRAMEWORK, ...DATABASE],
      'lib/ holds plain shared modules: no framework, no database.',
    ),
    folders(
      except(),
      'lib/ may import trajectory/ only: move the shared part into lib/ or trajectory/.',
    ),
  ],
  'kit/**/*.ts': [
    {
      regex: '^(?!\\.|@opentelemetry/api$|node:)',
      message:
        'kit/ ships to harnesses with @opentelemetry/api as its only dependency: use @opentelemetry/api, node: built-ins or ../trajectory/ (relative, so the package build can carry it).',
    },
    folders(except(), 'kit/ may import trajectory/ only (it ships to harnesses).'),
  ],
  'server/**/*.ts': [
    folders(
      ['app', 'components'],
      'server/ boots the process: pages and routes reach it through server/runtime.ts, not the reverse.',
    ),
  ],
};

export const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/test-*.ts'];

/** The flat-config entries that enforce LAYER_RULES. */
export function layerConfigs() {
  return Object.entries(LAYER_RULES).map(([files, patterns]) => ({
    files: [files],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  }));
}

import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import tseslint from 'typescript-eslint';

// The import direction of DESIGN.md: trajectory/ is pure; components/ render what pages hand them;
// ingest/ and db/ know nothing of pages. Each message names what to use instead.
const framework = (message) =>
  [
    'next',
    'next/*',
    'react',
    'react-dom',
    'drizzle-orm',
    'drizzle-orm/*',
    'postgres',
    '@electric-sql/*',
  ].map((name) => ({ group: [name], message }));
const folder = (names, message) => ({
  group: names.flatMap((n) => [
    `../${n}/*`,
    `../../${n}/*`,
    `../../../${n}/*`,
    `../${n}`,
    `../../${n}`,
  ]),
  message,
});

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      '.loopscope/**',
      'db/migrations/**',
      'next-env.d.ts',
      'test-results/**',
      'playwright-report/**',
      'e2e/artifacts/**',
      'conformance/frameworks/*/node_modules/**',
    ],
  },
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Playwright fixtures hand values on with a callback named `use`; it is not React's hook.
    files: ['e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    files: ['trajectory/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...framework(
              'trajectory/ is the pure core: pass plain data in from ingest/ or db/ instead.',
            ),
            folder(
              ['ingest', 'db', 'app', 'components', 'server'],
              'trajectory/ imports nothing of the app: move the shared part into trajectory/.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*', 'postgres', '@electric-sql/*'],
              message: 'components/ take props: read through a db/ read model in the page instead.',
            },
            folder(
              ['db', 'ingest', 'server'],
              'components/ take props: let the page call the db/ read model and pass plain data.',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['ingest/**/*.ts', 'db/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['next', 'next/*', 'react', 'react-dom'],
              message: 'ingest/ and db/ know nothing of pages: return plain data to app/.',
            },
            folder(
              ['app', 'components'],
              'ingest/ and db/ know nothing of pages: return plain data to app/.',
            ),
          ],
        },
      ],
    },
  },
);

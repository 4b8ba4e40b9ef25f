// The layer rules bite: a forbidden import fails lint whether written relative or through `@/`,
// and the imports each layer is meant to make pass.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, { filePath: file });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe('the import direction', () => {
  it.each([
    ['trajectory/x.ts', "import { x } from '../db/sql';"],
    ['trajectory/x.ts', "import { x } from '@/db/sql';"],
    ['trajectory/x.ts', "import { x } from '@/lib/filters';"],
    ['trajectory/x.ts', "import { x } from 'drizzle-orm';"],
    ['trajectory/x.ts', "import { x } from 'next/navigation';"],
    ['components/runs/x.tsx', "import { x } from '@/db/read/list-runs';"],
    ['components/runs/x.tsx', "import { x } from '../../db/read/list-runs';"],
    ['components/runs/x.tsx', "import { x } from '@/server/runtime';"],
    ['components/runs/x.tsx', "import { x } from '@/ingest/validate';"],
    ['components/runs/x.tsx', "import { x } from '@/derive/deriver';"],
    ['components/x.tsx', "import { x } from 'postgres';"],
    ['db/read/x.ts', "import { x } from '../../ingest/span-facts';"],
    ['db/read/x.ts', "import { x } from '@/ingest/span-facts';"],
    ['db/write/x.ts', "import { x } from '@/derive/derive-runs';"],
    ['db/x.ts', "import { x } from 'next/headers';"],
    ['ingest/x.ts', "import { x } from '../derive/deriver';"],
    ['ingest/x.ts', "import { x } from '@/app/http';"],
    ['derive/x.ts', "import { x } from '../ingest/span-facts';"],
    ['derive/x.ts', "import { x } from '@/ingest/span-facts';"],
    ['lib/x.ts', "import { x } from '../db/sql';"],
    ['lib/x.ts', "import { x } from 'react';"],
    ['kit/x.ts', "import { x } from '../lib/settings';"],
    ['kit/x.ts', "import { x } from '@/lib/settings';"],
    ['kit/x.ts', "import { x } from 'zod';"],
    ['kit/x.ts', "import { x } from '@opentelemetry/sdk-trace';"],
    ['server/x.ts', "import { x } from '../app/http';"],
  ])('%s may not: %s', async (file, source) => {
    const messages = await restricted(file, source);
    expect(messages.length).toBeGreaterThan(0);
    // Each message names what to use instead.
    expect(messages[0]).toMatch(/:|use|instead|only|through/);
  });

  it.each([
    ['trajectory/x.ts', "import { x } from './step';"],
    ['components/runs/x.tsx', "import { x } from '@/trajectory/step';"],
    ['components/runs/x.tsx', "import { x } from '@/lib/api-types';"],
    ['db/read/x.ts', "import { x } from '../../trajectory/step';"],
    ['db/read/x.ts', "import { x } from 'drizzle-orm';"],
    ['derive/x.ts', "import { x } from '../db/sql';"],
    ['derive/x.ts', "import { x } from '../trajectory/span-facts';"],
    ['ingest/x.ts', "import { x } from '../db/write/store-spans';"],
    ['kit/x.ts', "import { x } from '../trajectory/canonical-hash';"],
    ['kit/x.ts', "import { x } from '@opentelemetry/api';"],
    ['kit/x.ts', "import { x } from 'node:crypto';"],
    ['kit/x.ts', "import { x } from './loop-step';"],
    ['app/x.ts', "import { x } from '@/db/read/list-runs';"],
    ['derive/x.test.ts', "import { x } from '../ingest/test-spans';"],
  ])('%s may: %s', async (file, source) => {
    expect(await restricted(file, source)).toEqual([]);
  });
});

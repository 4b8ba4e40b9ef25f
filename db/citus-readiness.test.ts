import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as schema from './schema';
import {
  queryProblems,
  REFERENCE_TABLES,
  schemaProblems,
  schemaTables,
  sqlTemplates,
} from './test-citus-rules';

const DB = fileURLToPath(new URL('.', import.meta.url));
const tables = schemaTables(schema);
const distributed = tables.filter((t) => !(t.name in REFERENCE_TABLES));

/** db/'s own source files: the code that runs, not its tests or test helpers. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    const testOnly = entry.name.endsWith('.test.ts') || entry.name.startsWith('test-');
    return entry.name.endsWith('.ts') && !testOnly ? [full] : [];
  });
}

describe('ready for Citus: distributed by project_id', () => {
  it('reads every table of the drizzle schema, and the reference tables exist', () => {
    expect(tables.map((t) => t.name).sort()).toEqual(
      expect.arrayContaining(['runs', 'spans', 'steps', 'trace_runs', 'weekly_rollups']),
    );
    for (const name of Object.keys(REFERENCE_TABLES)) {
      expect(tables.map((t) => t.name)).toContain(name);
    }
  });

  it('every primary key, unique index and foreign key of a distributed table includes project_id', () => {
    expect(schemaProblems(tables)).toEqual([]);
  });

  it('no query in db/ joins or aggregates distributed tables across projects', () => {
    const files = sourceFiles(DB);
    expect(files.length).toBeGreaterThan(20);
    // It reads the real queries: every raw template of db/ that names a distributed table.
    const templates = files.flatMap((file) => sqlTemplates(readFileSync(file, 'utf8')));
    const naming = templates.filter((t) => /\b(from|into|update)\s+(runs|steps|spans)\b/.test(t));
    expect(naming.length).toBeGreaterThan(15);
    const problems = files.flatMap((file) =>
      queryProblems(path.relative(DB, file), readFileSync(file, 'utf8'), distributed),
    );
    expect(problems).toEqual([]);
  });

  it('the rules bite: they name each kind of query and key that would not distribute', () => {
    const bad = [
      'const a = sql`select agent, count(*) from runs group by agent`;',
      'const b = sql`select * from runs r join steps s on s.run_id = r.id where r.project_id = ${p}`;',
      'const c = sql`select 1 from runs where exists (select 1 from dirty_runs d where d.run_id = runs.id)`;',
      'const d = await db.select().from(steps).where(eq(steps.runId, id));',
    ].join('\n');
    const found = queryProblems('bad.ts', bad, distributed);
    expect(found).toEqual([
      expect.stringContaining('aggregates runs across projects'),
      expect.stringContaining('joins steps on other than project_id'),
      expect.stringContaining('reads runs and dirty_runs together'),
      expect.stringContaining('reads steps without its project'),
    ]);
    const good = [
      'const a = sql`select agent, count(*) from runs where project_id = ${p} group by agent`;',
      'const b = sql`select * from runs r join steps s on s.project_id = r.project_id and s.run_id = r.id`;',
      'const c = sql`select 1 from runs where exists (select 1 from dirty_runs d where d.project_id = runs.project_id)`;',
      'const d = await db.select().from(steps).where(eq(steps.projectId, p));',
    ].join('\n');
    expect(queryProblems('good.ts', good, distributed)).toEqual([]);
    // A template's expressions, nested templates included, are part of what it reads.
    expect(sqlTemplates('sql`a ${sql`b ${c}`} d`')).toEqual(['a ${sql`b ${c}`} d', 'b ${c}']);
  });

  it('the key rules bite: a key without project_id is named', async () => {
    const { pgTable, text, uuid, primaryKey, uniqueIndex } = await import('drizzle-orm/pg-core');
    const bad = pgTable(
      'bad_table',
      { projectId: uuid('project_id').notNull(), id: text('id').notNull(), hash: text('hash') },
      (t) => [primaryKey({ columns: [t.id] }), uniqueIndex('bad_hash_idx').on(t.hash)],
    );
    const withId = pgTable('bad_id', { id: text('id').primaryKey(), other: text('o').unique() });
    expect(schemaProblems(schemaTables({ bad, withId }))).toEqual([
      'bad_table: primary key (id) leaves out project_id',
      'bad_table: unique index bad_hash_idx (hash) leaves out project_id',
      'bad_id has no project_id column',
      'bad_id: primary key (id) leaves out project_id',
      'bad_id: unique (o) leaves out project_id',
    ]);
  });
});

// For db/citus-readiness.test.ts: what a distributed Postgres (Citus) needs of the schema and the queries, as checks a test runs
// (db/citus-readiness.test.ts; docs/scale.md says why). Tables distributed by project_id must
// carry project_id in every primary key, unique index and foreign key, so each of those holds
// within one shard; a query that joins or aggregates them must do it within a project, so it runs
// on the shard that holds the project. Reference tables (copied whole to every node) are exempt.
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';

export const DISTRIBUTION_COLUMN = 'project_id';

/** Small tables read by every project, copied to every node: why each is one. */
export const REFERENCE_TABLES: Record<string, string> = {
  projects: 'the distribution root: one row per project, its id is project_id',
  api_keys: 'a key is looked up by its hash before the project is known',
  prices: 'one price list for every project',
};

export interface SchemaTable {
  exportName: string;
  name: string;
  config: ReturnType<typeof getTableConfig>;
}

export function schemaTables(schema: Record<string, unknown>): SchemaTable[] {
  return Object.entries(schema)
    .filter((entry): entry is [string, PgTable] => is(entry[1], PgTable))
    .map(([exportName, table]) => {
      const config = getTableConfig(table);
      return { exportName, name: config.name, config };
    });
}

/** Every key, unique index and foreign key of a distributed table that leaves out project_id. */
export function schemaProblems(tables: readonly SchemaTable[]): string[] {
  const problems: string[] = [];
  const distributed = new Set(
    tables.filter((t) => !(t.name in REFERENCE_TABLES)).map((t) => t.name),
  );
  for (const { name, config } of tables) {
    const reference = name in REFERENCE_TABLES;
    for (const fk of config.foreignKeys) {
      const ref = fk.reference();
      const target = getTableConfig(ref.foreignTable).name;
      if (reference && distributed.has(target)) {
        problems.push(`${name} is a reference table with a foreign key to distributed ${target}`);
      }
      const local = ref.columns.map((c) => c.name);
      const foreign = ref.foreignColumns.map((c) => c.name);
      if (
        !reference &&
        distributed.has(target) &&
        !(local.includes(DISTRIBUTION_COLUMN) && foreign.includes(DISTRIBUTION_COLUMN))
      ) {
        problems.push(
          `${name}: foreign key (${local.join(', ')}) → ${target} leaves out ${DISTRIBUTION_COLUMN}`,
        );
      }
    }
    if (reference) continue;
    if (!config.columns.some((c) => c.name === DISTRIBUTION_COLUMN)) {
      problems.push(`${name} has no ${DISTRIBUTION_COLUMN} column`);
    }
    for (const column of config.columns) {
      if (column.primary && column.name !== DISTRIBUTION_COLUMN) {
        problems.push(`${name}: primary key (${column.name}) leaves out ${DISTRIBUTION_COLUMN}`);
      }
      if (column.isUnique && column.name !== DISTRIBUTION_COLUMN) {
        problems.push(`${name}: unique (${column.name}) leaves out ${DISTRIBUTION_COLUMN}`);
      }
    }
    for (const pk of config.primaryKeys) {
      const columns = pk.columns.map((c) => c.name);
      if (!columns.includes(DISTRIBUTION_COLUMN)) {
        problems.push(
          `${name}: primary key (${columns.join(', ')}) leaves out ${DISTRIBUTION_COLUMN}`,
        );
      }
    }
    if (config.primaryKeys.length === 0 && !config.columns.some((c) => c.primary)) {
      problems.push(`${name} has no primary key`);
    }
    for (const unique of config.uniqueConstraints) {
      const columns = unique.columns.map((c) => c.name);
      if (!columns.includes(DISTRIBUTION_COLUMN)) {
        problems.push(`${name}: unique (${columns.join(', ')}) leaves out ${DISTRIBUTION_COLUMN}`);
      }
    }
    for (const index of config.indexes) {
      if (!index.config.unique) continue;
      const columns = index.config.columns.map((c) =>
        'name' in c && typeof c.name === 'string' ? c.name : '(expression)',
      );
      if (!columns.includes(DISTRIBUTION_COLUMN)) {
        problems.push(
          `${name}: unique index ${index.config.name ?? ''} (${columns.join(', ')}) leaves out ${DISTRIBUTION_COLUMN}`,
        );
      }
    }
  }
  return problems;
}

/** Every sql`…` template of a source file, its literal text and its expressions' source alike. */
export function sqlTemplates(source: string): string[] {
  const found: string[] = [];
  const re = /(?<![\w$.])sql`/g;
  for (let match = re.exec(source); match; match = re.exec(source)) {
    const end = templateEnd(source, match.index + 4);
    found.push(source.slice(match.index + 4, end));
  }
  return found;
}

/** The index of the backtick that closes the template whose text starts at `start`. */
function templateEnd(source: string, start: number): number {
  let k = start;
  while (k < source.length) {
    const ch = source[k];
    if (ch === '\\') k += 2;
    else if (ch === '`') return k;
    else if (ch === '$' && source[k + 1] === '{') k = expressionEnd(source, k + 2);
    else k++;
  }
  return k;
}

function expressionEnd(source: string, start: number): number {
  let depth = 1;
  let k = start;
  while (k < source.length && depth > 0) {
    const ch = source[k];
    if (ch === '`') k = templateEnd(source, k + 1) + 1;
    else if (ch === "'" || ch === '"') {
      const quote = ch;
      k++;
      while (k < source.length && source[k] !== quote) k += source[k] === '\\' ? 2 : 1;
      k++;
    } else {
      if (ch === '{') depth++;
      else if (ch === '}') depth--;
      k++;
    }
  }
  return k;
}

const AGGREGATE = /\b(count|sum|avg|min|max|array_agg|jsonb_agg|string_agg)\s*\(|\bgroup\s+by\b/;
const LINKED = /\b\w+\.project_id\s*=\s*\w+\.project_id\b|\busing\s*\(\s*project_id\b/;

/**
 * The names in a file that stand for a project's scope: runScope, and every const or function
 * whose definition uses one of them or names project_id / projectId (`const finishedRuns = (q)
 * => runScope(…)`, `const where = scope(query)`).
 */
export function scopeNames(source: string): Set<string> {
  const names = new Set(['runScope']);
  const definitions = [
    ...source.matchAll(/\b(?:const|let)\s+(\w+)\s*(?::[^=]+)?=([\s\S]*?);\n/g),
    ...source.matchAll(/\bfunction\s+(\w+)\s*\(([\s\S]*?)\n\}/g),
  ].map((m) => [m[1] ?? '', m[2] ?? ''] as const);
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, body] of definitions) {
      if (names.has(name)) continue;
      const uses =
        /project_?id/i.test(body) || [...names].some((n) => new RegExp(`\\b${n}\\b`).test(body));
      if (uses) {
        names.add(name);
        grew = true;
      }
    }
  }
  return names;
}

/**
 * The queries (raw templates and drizzle `.from(table)` chains) of one source file that join or
 * aggregate distributed tables without keeping to one project.
 */
export function queryProblems(
  file: string,
  source: string,
  distributed: readonly { name: string; exportName: string }[],
): string[] {
  const problems: string[] = [];
  const names = distributed.flatMap((t) => [t.name, `\${${t.exportName}}`]);
  const tableRef = new RegExp(
    String.raw`\b(?:from|join|into|update|using)\s+(${names.map(escape).join('|')})(?![\w])`,
    'g',
  );
  const helpers = [...scopeNames(source)].map((n) => n.toLowerCase());
  // Each place a statement names its project: a project id given as a parameter, or a scope helper.
  const markers = (text: string) =>
    (text.match(/\$\{[\w.]*projectid\b[^}]*\}/g) ?? []).length +
    helpers.reduce(
      (n, h) => n + (text.match(new RegExp(`\\$\\{\\s*${h}\\b`, 'g')) ?? []).length,
      0,
    );
  for (const template of sqlTemplates(source)) {
    const text = template.toLowerCase().replace(/--[^\n]*/g, '');
    const refs = [...text.matchAll(tableRef)].map((m) => m[1] ?? '');
    if (refs.length === 0) continue;
    const excerpt = template.replace(/\s+/g, ' ').trim().slice(0, 100);
    if (AGGREGATE.test(text) && !/project_id/.test(text) && markers(text) === 0) {
      problems.push(`${file}: aggregates ${refs.join(', ')} across projects: ${excerpt}`);
    }
    for (const join of text.matchAll(
      /\bjoin\s+([\w${}]+)(?:\s+(?:as\s+)?\w+)?\s+on\s+([\s\S]*?)(?=\b(?:left|right|inner|full|cross)?\s*join\b|\bwhere\b|\bgroup\b|\border\b|\blimit\b|\)|$)/g,
    )) {
      if (names.includes(join[1] ?? '') && !join[2]?.includes('project_id')) {
        problems.push(`${file}: joins ${join[1]} on other than project_id: ${excerpt}`);
      }
    }
    // Tables read together in one statement (a subquery, a CTE) without a join: each must be
    // held to the project, by a link between them or a project of its own.
    for (const part of text.split(/\bunion(?:\s+all)?\b/)) {
      const tables = new Set([...part.matchAll(tableRef)].map((m) => m[1] ?? ''));
      if (tables.size < 2 || /\bjoin\b/.test(part) || LINKED.test(part)) continue;
      if (markers(part) < tables.size) {
        problems.push(
          `${file}: reads ${[...tables].join(' and ')} together without project_id = project_id: ${excerpt}`,
        );
      }
    }
  }
  for (const chain of source.matchAll(/\.from\((\w+)\)[\s\S]*?(?:;|\n\s*\n)/g)) {
    const table = distributed.find((t) => t.exportName === chain[1]);
    if (!table) continue;
    // The chain from `.from(table)` to the end of its statement holds its where.
    const statement = chain[0];
    if (
      !/projectId|project_id/.test(statement) &&
      !helpers.some((h) => new RegExp(`(?<![.\\w])${h}\\b`).test(statement.toLowerCase()))
    ) {
      problems.push(
        `${file}: reads ${table.name} without its project: ${statement.trim().slice(0, 100)}`,
      );
    }
  }
  return problems;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

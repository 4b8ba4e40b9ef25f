import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client';
import { parsePgArray, serializePgArray } from './pg-arrays';
import { createTestDatabase } from './test-database';

const HARD = [
  '',
  'plain',
  'with space',
  'a,b',
  '{braces}',
  'quote"d',
  'back\\slash',
  '\\',
  'NULL',
  'null',
  'ünï ✓',
  '\\"',
];

describe('the text form of Postgres arrays', () => {
  it('reads quoted, unquoted, empty, NULL, nested and bounded arrays', () => {
    expect(parsePgArray('{}')).toEqual([]);
    expect(parsePgArray('{a,b}')).toEqual(['a', 'b']);
    expect(parsePgArray('{"a b","",NULL,"NULL"}')).toEqual(['a b', '', null, 'NULL']);
    expect(parsePgArray('{"q\\"x","b\\\\s"}')).toEqual(['q"x', 'b\\s']);
    expect(parsePgArray('{{1,2},{3,4}}', Number)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(parsePgArray('[0:1]={7,8}', Number)).toEqual([7, 8]);
  });

  it('refuses what is not an array literal', () => {
    expect(() => parsePgArray('a,b')).toThrow(/malformed/);
    expect(() => parsePgArray('{"open')).toThrow(/unterminated/);
  });

  it('writes what it reads back the same', () => {
    expect(parsePgArray(serializePgArray(HARD))).toEqual(HARD);
    expect(serializePgArray([null, 'x'])).toBe('{NULL,"x"}');
  });
});

describe('arrays through the Postgres pool (no fetch_types)', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('come back as arrays of their element type, edge values intact', async () => {
    const rows = (await handle.db.execute(sql`
      select ${serializePgArray(HARD)}::text[] as texts,
        array[1, null, 3]::int4[] as ints,
        array[9007199254740993]::int8[] as bigs,
        array[true, false]::bool[] as flags,
        array['{"a":1}']::jsonb[] as docs,
        '{}'::text[] as none,
        array['2026-01-02T03:04:05Z']::timestamptz[] as times`)) as unknown as Record<
      string,
      unknown
    >[];
    expect(rows[0]).toMatchObject({
      texts: HARD,
      ints: [1, null, 3],
      flags: [true, false],
      none: [],
    });
    expect(rows[0]?.bigs).toEqual(['9007199254740993']);
    expect(rows[0]?.docs).toHaveLength(1);
    // drizzle keeps date and time arrays as Postgres's text (its columns parse them), as before
    expect(rows[0]?.times).toMatch(/^\{"2026-01-0[12] \d\d:04:05[+-]\d\d"\}$/);
  });
});

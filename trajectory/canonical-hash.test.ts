import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_DEPTH,
  canonicalActionHash,
  jcs,
  normalizeArgs,
  normalizeNumber,
  shortHash,
} from './canonical-hash';

const hash = canonicalActionHash;

describe('canonicalActionHash: the frozen contract', () => {
  // printf 'read_file\n{"limit":10,"path":"src/a.ts"}' | sha256sum
  const pinned = '6e9a80d0eb961a7f5e96847a0ea90e2c38a5a6acb47c8aba679e76aa217ca444';

  it.each([
    ['a JSON string', '{"path":"src/a.ts","limit":10}'],
    ['an object', { path: 'src/a.ts', limit: 10 }],
    ['noisy spacing and order', ' {\n  "limit": 10.0000001,\n  "path": "  src/a.ts "\n} '],
  ])('matches the value computed with sha256sum, given %s', (_label, args) => {
    expect(hash('read_file', args)).toBe(pinned);
  });

  it('is sha256 hex of name, newline, JCS of the normalised args', () => {
    const args = { b: [1, 'x'], a: null };
    const expected = createHash('sha256').update('t\n{"a":null,"b":[1,"x"]}').digest('hex');
    expect(hash('t', args)).toBe(expected);
    expect(hash('t', args)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('canonicalActionHash: what counts as the same call', () => {
  const same: [label: string, a: unknown, b: unknown][] = [
    ['key order', '{"a":1,"b":2}', '{"b":2,"a":1}'],
    [
      'nested key order',
      { x: { b: 1, a: [{ d: 1, c: 2 }] } },
      { x: { a: [{ c: 2, d: 1 }], b: 1 } },
    ],
    ['spacing between tokens', '{"a": [1, 2]}', '{"a":[1,2]}'],
    ['spacing inside strings', { q: '  hello   \t world\n' }, { q: 'hello world' }],
    ['float noise 0.1+0.2 vs 0.3', { n: 0.1 + 0.2 }, { n: 0.3 }],
    ['noise below 6 places', { n: 1.0000001 }, { n: 1.0000004 }],
    ['-0 and 0', { n: -0 }, { n: 0 }],
    ['tiny negative and 0', { n: -1e-9 }, { n: 0 }],
    ['1.0 and 1', '{"n":1.0}', '{"n":1}'],
    ['an exponent and its digits', '{"n":1e3}', '{"n":1000}'],
    ['undefined and null', undefined, null],
    ['"null" and null', 'null', null],
    ['invalid JSON with spacing noise', ' not  json {', 'not json {'],
    ['undefined members dropped', { a: 1, b: undefined }, { a: 1 }],
  ];
  it.each(same)('%s', (_label, a, b) => {
    expect(hash('tool', a)).toBe(hash('tool', b));
  });

  const different: [label: string, a: unknown, b: unknown][] = [
    ['floats apart at 5 places', { n: 1.00001 }, { n: 1.00002 }],
    ['array order', [1, 2], [2, 1]],
    ['nested arrays', [[1], [2]], [[1, 2]]],
    ['a string and a number', { n: '1' }, { n: 1 }],
    ['case inside strings', { q: 'Hello' }, { q: 'hello' }],
    ['invalid JSON and its text as a JSON string', 'abc', '"abd"'],
    ['different values', { path: 'a' }, { path: 'b' }],
    ['empty object and null', {}, null],
    ['key with spaces and without', { ' a': 1 }, { a: 1 }],
  ];
  it.each(different)('%s differ', (_label, a, b) => {
    expect(hash('tool', a)).not.toBe(hash('tool', b));
  });

  it('hashes invalid JSON as the normalised text, JSON-encoded', () => {
    expect(normalizeArgs('  not   json ')).toBe('not json');
    expect(hash('tool', 'not json')).toBe(hash('tool', '"not json"'));
  });

  it('separates names: same args under different names differ', () => {
    expect(hash('read_file', { path: 'a' })).not.toBe(hash('write_file', { path: 'a' }));
  });

  it('trims the name but keeps its case', () => {
    expect(hash(' search\n', { q: 1 })).toBe(hash('search', { q: 1 }));
    expect(hash('Search', { q: 1 })).not.toBe(hash('search', { q: 1 }));
  });

  it('cannot be fooled by a newline in the name', () => {
    expect(hash('a\n1', null)).not.toBe(hash('a', '1\nnull'));
  });
});

describe('normalizeNumber', () => {
  it.each([
    [0.30000000000000004, 0.3],
    [-0, 0],
    [1.23456789, 1.234568],
    [-2.5e-7, -0],
    [123456789.123456789, 123456789.123457],
    [1e21, 1e21],
    [1.7976931348623157e308, 1.7976931348623157e308],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
  ])('%s → %s', (input, expected) => {
    const out = normalizeNumber(input);
    expect(out).toBe(expected === -0 ? 0 : expected);
    if (out === 0) expect(Object.is(out, -0)).toBe(false);
  });

  it('maps JSON literals too large for a double (1e400 parses to Infinity) to null', () => {
    expect(normalizeArgs('{"n":1e400}')).toEqual({ n: null });
  });
});

describe('jcs: RFC 8785 vectors (cyberphone/json-canonicalization testdata)', () => {
  it('structures: key sorting at every level', () => {
    const input =
      '{"1":{"f":{"f":"hi","F":5},"\\n":56.0},"10":{},"":"empty","a":{},"111":[{}],"A":{}}';
    expect(jcs(JSON.parse(input))).toBe(
      '{"":"empty","1":{"\\n":56,"f":{"F":5,"f":"hi"}},"10":{},"111":[{}],"A":{},"a":{}}',
    );
  });

  it('values: numbers, escaping and literals', () => {
    const input = String.raw`{"numbers":[1E30,4.50,333333333.33333329,2e-3,0.000000000000000000000000001],"escaping":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}`;
    expect(jcs(JSON.parse(input))).toBe(
      String.raw`{"escaping":"€$\u000f\nA'B\"\\\\\"/","literals":[null,true,false],"numbers":[1e+30,4.5,333333333.3333333,0.002,1e-27]}`,
    );
  });

  it('weird: keys sort by UTF-16 code units, so an astral key precedes U+FB33', () => {
    const input = String.raw`{"\u20ac":"Euro Sign","1":"One","\u0080":"Control\u007f","\ud83d\ude02":"Smiley","\u00f6":"Latin Small Letter O With Diaeresis","\ufb33":"Hebrew Letter Dalet With Dagesh","</script>":"Browser Challenge"}`;
    expect(jcs(JSON.parse(input))).toBe(
      '{"1":"One","</script>":"Browser Challenge","\u0080":"Control\u007f",' +
        '"\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",' +
        '"\ud83d\ude02":"Smiley","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  // RFC 8785 Appendix B, IEEE 754 bit patterns and their serialisation
  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['44b52d02c7e14af6', '1e+23'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['c3e0000000000001', '-9223372036854778000'],
  ])('number %s → %s', (bits, text) => {
    expect(jcs(Buffer.from(bits, 'hex').readDoubleBE(0))).toBe(text);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('rejects %s', (n) => {
    expect(() => jcs(n)).toThrow(TypeError);
  });
});

describe('hostile input', () => {
  it('keeps __proto__ and constructor as data keys', () => {
    const text = '{"__proto__":{"polluted":true},"constructor":{"prototype":1},"a":1}';
    expect(jcs(normalizeArgs(text))).toBe(
      '{"__proto__":{"polluted":true},"a":1,"constructor":{"prototype":1}}',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(hash('t', text)).not.toBe(hash('t', '{"a":1}'));
  });

  it(`hashes nesting past depth ${MAX_DEPTH} as text instead of overflowing`, () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(() => hash('t', deep(200_000))).not.toThrow();
    expect(hash('t', deep(100))).not.toBe(hash('t', deep(101)));
    expect(hash('t', deep(200_000))).toBe(hash('t', deep(300_000)));
    const atCap = normalizeArgs(deep(MAX_DEPTH + 2));
    expect(jcs(atCap)).toContain('"[[]]"');
  });

  it('survives cycles, bigint, functions, dates and sparse arrays', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(jcs(normalizeArgs(cyclic))).toBe('{"a":1,"self":"[circular]"}');
    expect(jcs(normalizeArgs({ big: 12n, huge: 2n ** 80n, f: () => 1 }))).toBe(
      '{"big":12,"huge":"1208925819614629174706176"}',
    );
    expect(jcs(normalizeArgs({ at: new Date(0) }))).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
    expect(jcs(normalizeArgs([1, , 3]))).toBe('[1,null,3]');
  });

  it('handles a huge string', () => {
    const big = 'x'.repeat(5_000_000);
    expect(hash('t', { big })).toBe(hash('t', { big: ` ${big}  ` }));
  });

  // A top-level string argument is always read as JSON text, so strings are left out here.
  it('never throws and is stable for any JSON value (property)', () => {
    const notAString = fc.jsonValue().filter((v) => typeof v !== 'string');
    fc.assert(
      fc.property(notAString, (value) => {
        const text = JSON.stringify(value);
        expect(hash('t', text)).toBe(hash('t', value));
        expect(hash('t', text)).toBe(hash('t', JSON.parse(jcs(normalizeArgs(text)))));
      }),
    );
  });
});

describe('shortHash', () => {
  it('keeps the first 8 hex characters', () => {
    expect(shortHash('6e9a80d0eb961a7f5e96847a0ea90e2c')).toBe('6e9a80d0');
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalActionHash } from '../trajectory/canonical-hash';
import { pythonLiteralToJson } from './python-literal';
import { extractSpanFacts } from './span-facts';
import { span } from './test-spans';

describe('Python repr arguments', () => {
  it.each([
    ["{'path': 'a.txt'}", { path: 'a.txt' }],
    [
      "{'force': True, 'dry': False, 'tag': None, 'n': -1.5e3}",
      { force: true, dry: false, tag: null, n: -1500 },
    ],
    [
      "{'q': \"it's\", 'items': [1, (2, 3)], 'nested': {'k': 'v\\n'}}",
      { q: "it's", items: [1, [2, 3]], nested: { k: 'v\n' } },
    ],
    ['{}', {}],
  ])('reads %s', (text, value) => {
    expect(JSON.parse(pythonLiteralToJson(text) ?? 'null')).toEqual(value);
  });

  it.each([
    "{'a': open('x')}",
    "{'a': 1",
    'plain text',
    "{'a': 1} trailing",
    "{'a': b'bytes'}",
    '['.repeat(100),
  ])('gives up on %s', (text) => {
    expect(pythonLiteralToJson(text)).toBeNull();
  });

  it('a tool span with repr arguments hashes like the same arguments in JSON, key order aside', () => {
    const tool = (input: string) =>
      extractSpanFacts(
        span(1, null, 'read_file', 0, 1, {
          'openinference.span.kind': 'TOOL',
          'tool.name': 'read_file',
          'input.value': input,
        }),
      );
    const repr = tool("{'path': 'config.yaml', 'lines': 10}");
    expect(repr.actionArgs).toBe('{"path":"config.yaml","lines":10}');
    expect(repr.actionHash).toBe(tool('{"lines": 10, "path": "config.yaml"}').actionHash);
    expect(repr.actionHash).toBe(
      canonicalActionHash('read_file', { lines: 10, path: 'config.yaml' }),
    );
  });
});

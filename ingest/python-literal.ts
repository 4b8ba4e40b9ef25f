// Python tracers record tool arguments as a Python repr (`{'path': 'a.txt', 'force': True}`,
// OpenInference LangGraph Python). Read as JSON they hash as one opaque string, so key order and
// spacing would matter. This reads the literal subset a repr of JSON-like data uses (dicts,
// lists, tuples, strings, numbers, True/False/None) into JSON text, and gives up on anything else.

const MAX_LENGTH = 100_000;
const MAX_DEPTH = 64;

export function pythonLiteralToJson(text: string): string | null {
  const source = text.trim();
  if (source.length > MAX_LENGTH || !/^[{[(]/.test(source)) return null;
  const reader = new LiteralReader(source);
  try {
    const value = reader.value(0);
    reader.skipSpace();
    return reader.atEnd() ? JSON.stringify(value) : null;
  } catch {
    return null;
  }
}

class LiteralReader {
  private at = 0;
  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.at >= this.text.length;
  }

  skipSpace(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Error('too deep');
    this.skipSpace();
    const c = this.text[this.at];
    if (c === '{') return this.dict(depth);
    if (c === '[') return this.sequence(']', depth);
    if (c === '(') return this.sequence(')', depth);
    if (c === "'" || c === '"') return this.string();
    for (const [word, value] of [
      ['True', true],
      ['False', false],
      ['None', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    const number = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(this.text.slice(this.at, this.at + 64));
    if (!number) throw new Error('not a literal');
    this.at += number[0].length;
    return Number(number[0]);
  }

  private dict(depth: number): Record<string, unknown> {
    this.at++;
    const out = Object.create(null) as Record<string, unknown>;
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] === '}') {
        this.at++;
        return out;
      }
      const key = this.value(depth + 1);
      if (typeof key !== 'string' && typeof key !== 'number') throw new Error('key');
      this.expect(':');
      out[String(key)] = this.value(depth + 1);
      this.separator('}');
    }
  }

  private sequence(close: string, depth: number): unknown[] {
    this.at++;
    const out: unknown[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] === close) {
        this.at++;
        return out;
      }
      out.push(this.value(depth + 1));
      this.separator(close);
    }
  }

  private separator(close: string): void {
    this.skipSpace();
    const c = this.text[this.at];
    if (c === ',') this.at++;
    else if (c !== close) throw new Error('separator');
  }

  private expect(char: string): void {
    this.skipSpace();
    if (this.text[this.at] !== char) throw new Error(`expected ${char}`);
    this.at++;
  }

  private string(): string {
    const quote = this.text[this.at];
    this.at++;
    let out = '';
    for (;;) {
      const c = this.text[this.at];
      if (c === undefined) throw new Error('unterminated');
      this.at++;
      if (c === quote) return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = this.text[this.at++];
      const simple: Record<string, string> = {
        n: '\n',
        t: '\t',
        r: '\r',
        '\\': '\\',
        "'": "'",
        '"': '"',
      };
      if (e !== undefined && Object.hasOwn(simple, e)) out += simple[e];
      else if (e === 'x' || e === 'u') {
        const size = e === 'x' ? 2 : 4;
        const hex = this.text.slice(this.at, this.at + size);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== size) throw new Error('escape');
        out += String.fromCharCode(parseInt(hex, 16));
        this.at += size;
      } else throw new Error('escape');
    }
  }
}

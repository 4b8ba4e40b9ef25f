// Arrays for postgres.js without its `fetch_types`: that option sends a query for the array types
// on each new connection and drops its promise, so a connection lost at that moment (an outage,
// a failover) is an unhandled rejection that ends the process (porsager/postgres#1192, #1223).
// The built-in types have the same oids in every Postgres, so their arrays are known here.

type Parser = (text: string) => unknown;
type Serializer = (value: unknown) => unknown;

/** A postgres.js client's type tables (`sql.options`), which drizzle also writes to. */
export interface TypeTables {
  options: { parsers: Record<number, Parser>; serializers: Record<number, Serializer> };
}

/** [element oid, array oid] of every built-in type an array of which a query may return. */
const BUILT_IN_ARRAYS: ReadonlyArray<readonly [number, number]> = [
  [16, 1000], // bool
  [17, 1001], // bytea
  [18, 1002], // char
  [19, 1003], // name
  [20, 1016], // int8
  [21, 1005], // int2
  [23, 1007], // int4
  [25, 1009], // text
  [26, 1028], // oid
  [114, 199], // json
  [700, 1021], // float4
  [701, 1022], // float8
  [1042, 1014], // bpchar
  [1043, 1015], // varchar
  [1082, 1182], // date
  [1083, 1183], // time
  [1114, 1115], // timestamp
  [1184, 1185], // timestamptz
  [1186, 1187], // interval
  [1700, 1231], // numeric
  [2950, 2951], // uuid
  [3802, 3807], // jsonb
];

/** Registers a parser and a serializer for each built-in array type on the client. */
export function registerArrayTypes(client: TypeTables): void {
  const { parsers, serializers } = client.options;
  for (const [element, array] of BUILT_IN_ARRAYS) {
    // Looked up per value: drizzle replaces some element parsers after the client is made.
    parsers[array] = (text) => parsePgArray(text, (v) => (parsers[element] ?? String)(v));
    serializers[array] = (value) =>
      Array.isArray(value) ? serializePgArray(value, (v) => serializers[element]?.(v) ?? v) : value;
  }
}

/**
 * Postgres's text form of an array: `{a,"b c",NULL,{1,2}}`, quoted elements with `\"` and `\\`,
 * an optional `[1:3]=` bounds prefix. Unquoted NULL is null; each other element goes through
 * `parseElement`.
 */
export function parsePgArray(text: string, parseElement: Parser = (v) => v): unknown[] {
  let at = text.startsWith('[') ? text.indexOf('=') + 1 : 0;
  const read = (): unknown[] => {
    const values: unknown[] = [];
    at += 1; // past '{'
    if (text[at] === '}') {
      at += 1;
      return values;
    }
    for (;;) {
      if (text[at] === '{') {
        values.push(read());
      } else if (text[at] === '"') {
        let value = '';
        for (at += 1; text[at] !== '"'; at += 1) {
          if (at >= text.length) throw new Error(`unterminated array element in ${text}`);
          if (text[at] === '\\') at += 1;
          value += text[at];
        }
        at += 1;
        values.push(parseElement(value));
      } else {
        const end = nextDelimiter(text, at);
        const raw = text.slice(at, end);
        at = end;
        values.push(raw.toUpperCase() === 'NULL' ? null : parseElement(raw));
      }
      const delimiter = text[at];
      at += 1;
      if (delimiter === '}') return values;
      if (delimiter !== ',') throw new Error(`malformed array literal ${text}`);
    }
  };
  if (text[at] !== '{') throw new Error(`malformed array literal ${text}`);
  return read();
}

function nextDelimiter(text: string, from: number): number {
  for (let at = from; at < text.length; at += 1) {
    if (text[at] === ',' || text[at] === '}') return at;
  }
  throw new Error(`malformed array literal ${text}`);
}

/** The text form Postgres reads back as the same array: every element quoted, null as NULL. */
export function serializePgArray(
  values: readonly unknown[],
  serializeElement: Serializer = (v) => v,
): string {
  const items = values.map((value) => {
    if (Array.isArray(value)) return serializePgArray(value, serializeElement);
    if (value === null || value === undefined) return 'NULL';
    const text = String(serializeElement(value));
    return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

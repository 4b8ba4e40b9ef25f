// Decoder throughput: `npx tsx bench/decode/decode.bench.ts`.
// Scales the captured agent run (real exporter output) to batches of 512 spans with ~20 attributes each, then
// measures the hand-written protobuf decoder against protobufjs (built from the OTLP .proto text) and the JSON
// decoder, all producing plain objects.
import { readFileSync } from 'node:fs';
import { decodeJsonRequest } from '../../ingest/otlp/decode-json';
import { decodeProtobufRequest } from '../../ingest/otlp/decode-protobuf';
import { loadOtlpTypes } from '../../ingest/otlp/fixtures/otlp-trace-proto';

const SPANS_PER_BATCH = 512;
const ATTRIBUTES_PER_SPAN = 20;
const ROUND_MS = 1_500;
const ROUNDS = 5;

type KeyValue = { key: string; value: Record<string, unknown> };
type SpanObject = {
  traceId: Uint8Array;
  spanId: Uint8Array;
  parentSpanId: Uint8Array;
  attributes: KeyValue[];
  [k: string]: unknown;
};
type RequestObject = { resourceSpans: { scopeSpans: { spans: SpanObject[] }[] }[] };

const types = loadOtlpTypes();
const captured = readFileSync(new URL('../../ingest/otlp/fixtures/agent-run.bin', import.meta.url));

function buildBatch(): { protobuf: Uint8Array; json: string } {
  const request = types.request.toObject(types.request.decode(captured), {
    longs: String,
  }) as RequestObject;
  const scope = request.resourceSpans[0]?.scopeSpans[0];
  if (scope === undefined) throw new Error('the fixture has no spans');
  const templates = scope.spans;
  const spans: SpanObject[] = [];
  for (let i = 0; i < SPANS_PER_BATCH; i++) {
    const template = templates[i % templates.length] as SpanObject;
    const attributes = [...template.attributes];
    for (let a = attributes.length; a < ATTRIBUTES_PER_SPAN; a++) attributes.push(filler(i, a));
    spans.push({
      ...template,
      traceId: id(16, i >> 4),
      spanId: id(8, i),
      parentSpanId: i % 4 === 0 ? new Uint8Array(0) : id(8, i - 1),
      attributes,
    });
  }
  scope.spans = spans;
  const protobuf = types.request.encode(types.request.fromObject(request)).finish();
  const plain = types.request.toObject(types.request.decode(protobuf), {
    longs: String,
    bytes: String,
  }) as RequestObject;
  const hex = (base64: unknown) => Buffer.from(String(base64), 'base64').toString('hex');
  for (const span of plain.resourceSpans[0]?.scopeSpans[0]?.spans ?? []) {
    Object.assign(span, {
      traceId: hex(span.traceId),
      spanId: hex(span.spanId),
      parentSpanId: hex(span.parentSpanId),
    });
  }
  return { protobuf, json: JSON.stringify(plain) };
}

function id(length: number, n: number): Uint8Array {
  const bytes = new Uint8Array(length);
  new DataView(bytes.buffer).setUint32(length - 4, n + 1);
  bytes[0] = 0x5a;
  return bytes;
}

function filler(span: number, index: number): KeyValue {
  switch (index % 5) {
    case 0:
      return {
        key: `app.note.${index}`,
        value: { stringValue: `step ${span} observed ${'state '.repeat(1 + (index % 7))}` },
      };
    case 1:
      return { key: `app.count.${index}`, value: { intValue: String(span * 31 + index) } };
    case 2:
      return { key: `app.score.${index}`, value: { doubleValue: span / (index + 1) } };
    case 3:
      return { key: `app.flag.${index}`, value: { boolValue: span % 2 === 0 } };
    default:
      return {
        key: `app.payload.${index}`,
        value: {
          stringValue: JSON.stringify({ span, index, items: [1, 2, 3], note: 'x'.repeat(40) }),
        },
      };
  }
}

interface Contestant {
  name: string;
  bytes: number;
  run: () => number;
}

function measure(contestant: Contestant): number {
  let iterations = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < ROUND_MS) {
    if (contestant.run() !== SPANS_PER_BATCH)
      throw new Error(`${contestant.name} decoded the wrong number of spans`);
    iterations++;
    elapsed = performance.now() - started;
  }
  return (iterations * 1000) / elapsed;
}

function main(): void {
  const { protobuf, json } = buildBatch();
  const jsonBytes = Buffer.byteLength(json);
  const spanCount = (value: unknown) =>
    (value as RequestObject).resourceSpans[0]?.scopeSpans[0]?.spans.length ?? 0;
  const contestants: Contestant[] = [
    {
      name: 'hand-written protobuf',
      bytes: protobuf.length,
      run: () => decodeProtobufRequest(protobuf).spans.length,
    },
    {
      name: 'protobufjs decode + toObject',
      bytes: protobuf.length,
      run: () =>
        spanCount(
          types.request.toObject(types.request.decode(protobuf), { longs: String, bytes: String }),
        ),
    },
    {
      name: 'protobufjs decode only',
      bytes: protobuf.length,
      run: () => spanCount(types.request.decode(protobuf)),
    },
    {
      name: 'JSON.parse + decodeJsonRequest',
      bytes: jsonBytes,
      run: () => decodeJsonRequest(json).spans.length,
    },
  ];
  const samples = new Map<string, number[]>(contestants.map((c) => [c.name, []]));
  for (const c of contestants) measure(c); // warm-up
  // Interleaved rounds; the best round is the least disturbed by GC and other processes, the median is shown too.
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of contestants) samples.get(c.name)?.push(measure(c));
  }
  const best = (name: string) => Math.max(...(samples.get(name) ?? [0]));
  const median = (name: string) =>
    [...(samples.get(name) ?? [0])].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] ?? 0;
  const baseline = best('protobufjs decode + toObject');
  console.log(
    `batch: ${SPANS_PER_BATCH} spans, ~${ATTRIBUTES_PER_SPAN} attributes each; protobuf ${(protobuf.length / 1024).toFixed(0)} KiB, JSON ${(jsonBytes / 1024).toFixed(0)} KiB; node ${process.version}; ${ROUNDS} rounds of ${ROUND_MS} ms`,
  );
  console.table(
    contestants.map((c) => ({
      decoder: c.name,
      'MB/s (best)': ((best(c.name) * c.bytes) / 1e6).toFixed(1),
      'MB/s (median)': ((median(c.name) * c.bytes) / 1e6).toFixed(1),
      'spans/s (best)': Math.round(best(c.name) * SPANS_PER_BATCH).toLocaleString('en-US'),
      'vs protobufjs+toObject': `${(best(c.name) / baseline).toFixed(2)}×`,
    })),
  );
}

main();

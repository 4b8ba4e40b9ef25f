// Decoder throughput on the captured payloads (the real exporter's protobuf bodies): the
// hand-written decoder against protobufjs (from the OTLP .proto text; with toObject, to get plain
// objects as ours does, and decode alone), and the JSON decoder on the same requests as OTLP/JSON.
import { decodeJsonRequest } from '../../ingest/otlp/decode-json';
import { decodeProtobufRequest } from '../../ingest/otlp/decode-protobuf';
import { loadOtlpTypes } from '../../ingest/otlp/fixtures/otlp-trace-proto';

type RequestObject = { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] };

export interface DecoderResult {
  name: string;
  /** Best round (the least disturbed by GC and other processes) and the median round. */
  bestMBps: number;
  medianMBps: number;
  spansPerSecond: number;
}

interface Contestant {
  name: string;
  inputs: readonly (Uint8Array | string)[];
  decode: (input: Uint8Array | string) => number;
}

const spanCount = (value: unknown) =>
  (value as RequestObject).resourceSpans.reduce(
    (n, r) => n + r.scopeSpans.reduce((m, s) => m + s.spans.length, 0),
    0,
  );

/** The same request as OTLP/JSON (ids as hex, int64 as strings), as the JSON exporter sends it. */
function asOtlpJson(types: ReturnType<typeof loadOtlpTypes>, body: Uint8Array): string {
  const plain = types.request.toObject(types.request.decode(body), {
    longs: String,
    bytes: String,
  }) as RequestObject;
  const hex = (base64: unknown) => Buffer.from(String(base64 ?? ''), 'base64').toString('hex');
  for (const resource of plain.resourceSpans)
    for (const scope of resource.scopeSpans)
      for (const span of scope.spans)
        Object.assign(span, {
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          parentSpanId: hex(span.parentSpanId),
        });
  return JSON.stringify(plain);
}

export function raceDecoders(
  bodies: readonly Uint8Array[],
  options: { roundMs: number; rounds: number },
): { results: DecoderResult[]; protobufBytes: number; jsonBytes: number; spans: number } {
  const types = loadOtlpTypes();
  const json = bodies.map((b) => asOtlpJson(types, b));
  const contestants: Contestant[] = [
    {
      name: 'hand-written protobuf (ingest)',
      inputs: bodies,
      decode: (b) => decodeProtobufRequest(b as Uint8Array).spans.length,
    },
    {
      name: 'protobufjs decode + toObject',
      inputs: bodies,
      decode: (b) =>
        spanCount(
          types.request.toObject(types.request.decode(b as Uint8Array), {
            longs: String,
            bytes: String,
          }),
        ),
    },
    {
      name: 'protobufjs decode only',
      inputs: bodies,
      decode: (b) => spanCount(types.request.decode(b as Uint8Array)),
    },
    {
      name: 'JSON.parse + decodeJsonRequest (OTLP/JSON)',
      inputs: json,
      decode: (j) => decodeJsonRequest(j as string).spans.length,
    },
  ];
  const expected = bodies.map((b) => decodeProtobufRequest(b).spans.length);
  const bytes = (inputs: readonly (Uint8Array | string)[]) =>
    inputs.map((i) => (typeof i === 'string' ? Buffer.byteLength(i) : i.length));

  // One round: whole passes over the inputs for at least roundMs; MB/s and spans/s.
  const measure = (c: Contestant) => {
    const sizes = bytes(c.inputs);
    let total = 0;
    let spans = 0;
    const started = performance.now();
    let elapsed = 0;
    do {
      for (let k = 0; k < c.inputs.length; k++) {
        if (c.decode(c.inputs[k] as Uint8Array | string) !== expected[k])
          throw new Error(`${c.name} decoded the wrong number of spans`);
        total += sizes[k] as number;
        spans += expected[k] as number;
      }
      elapsed = performance.now() - started;
    } while (elapsed < options.roundMs);
    return { mbps: total / 1e3 / elapsed, spansPerSecond: (spans * 1000) / elapsed };
  };
  for (const c of contestants) measure(c); // warm-up
  const samples = new Map(
    contestants.map((c) => [c.name, [] as { mbps: number; spansPerSecond: number }[]]),
  );
  for (let round = 0; round < options.rounds; round++)
    for (const c of contestants) samples.get(c.name)?.push(measure(c));
  const results = contestants.map((c) => {
    const s = [...(samples.get(c.name) ?? [])].sort((a, b) => a.mbps - b.mbps);
    const best = s[s.length - 1];
    return {
      name: c.name,
      bestMBps: best?.mbps ?? Number.NaN,
      medianMBps: s[Math.floor(s.length / 2)]?.mbps ?? Number.NaN,
      spansPerSecond: best?.spansPerSecond ?? Number.NaN,
    };
  });
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return {
    results,
    protobufBytes: sum(bytes(bodies)),
    jsonBytes: sum(bytes(json)),
    spans: sum(expected),
  };
}

// Reads a committed capture back into spans, with the project's own OTLP decoders: the replay
// test's loader, and `npx tsx conformance/read-capture.ts <capture dir> [--attrs]`, which prints
// the spans as a tree (name, status, attributes, events) to see where a framework put a fact.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeJsonRequest } from '../ingest/otlp/decode-json';
import { decodeProtobufRequest } from '../ingest/otlp/decode-protobuf';
import type { OtlpSpan } from '../ingest/otlp/types';

export interface CaptureRequest {
  file: string;
  contentType: string;
  contentEncoding: string | null;
}

export interface ExpectedRun {
  key: string;
  exitCategory: string;
  exitKind: string | null;
  stepCount: number;
  signals: { repeat: boolean; revisit: boolean; stall: boolean; toolCircuit: boolean };
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
  model?: string;
  actions: string[];
  fragment: boolean;
  note?: string;
}

export interface Capture {
  framework: string;
  packages: Record<string, string>;
  scenario: string;
  source: 'captured' | 'built-from-source';
  note: string;
  requests: CaptureRequest[];
  /** `fragments: 'all'`: no run can be assembled; every trace must be listed as a fragment. */
  expect: { runs: ExpectedRun[]; fragments?: 'all' };
}

export function readCapture(dir: string): Capture {
  return JSON.parse(readFileSync(join(dir, 'capture.json'), 'utf8')) as Capture;
}

/** The request body exactly as the exporter sent it (files over ~20 KB are stored gzipped as `.gz`). */
export function requestBody(dir: string, request: CaptureRequest): Buffer {
  const stored = readFileSync(join(dir, request.file));
  return request.file.endsWith('.gz') ? gunzipSync(stored) : stored;
}

export function captureSpans(dir: string): OtlpSpan[] {
  return readCapture(dir).requests.flatMap((request) => {
    let body = requestBody(dir, request);
    if (request.contentEncoding === 'gzip') body = gunzipSync(body);
    return request.contentType.includes('json')
      ? decodeJsonRequest(body.toString('utf8')).spans
      : decodeProtobufRequest(body).spans;
  });
}

function printTree(spans: OtlpSpan[], attrs: boolean): void {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, OtlpSpan[]>();
  for (const span of spans) {
    const parent = ids.has(span.parentSpanId) ? span.parentSpanId : '';
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const print = (span: OtlpSpan, depth: number) => {
    const pad = '  '.repeat(depth);
    const status = ['', ' OK', ' ERROR'][span.statusCode] ?? '';
    const orphan = span.parentSpanId && !ids.has(span.parentSpanId) ? ' (parent not sent)' : '';
    console.log(
      `${pad}${span.name}${status}${span.statusMessage ? ` "${span.statusMessage}"` : ''} trace=${span.traceId.slice(0, 8)}${orphan}`,
    );
    if (attrs) {
      for (const [k, v] of Object.entries(span.attributes))
        console.log(`${pad}  . ${k} = ${JSON.stringify(v).slice(0, 300)}`);
      for (const e of span.events)
        console.log(`${pad}  ! ${e.name} ${JSON.stringify(e.attributes).slice(0, 400)}`);
    }
    for (const child of (children.get(span.spanId) ?? []).sort((a, b) => a.startMs - b.startMs))
      print(child, depth + 1);
  };
  for (const root of (children.get('') ?? []).sort((a, b) => a.startMs - b.startMs)) print(root, 0);
}

if (process.argv[1]?.endsWith('read-capture.ts') && process.argv[2]) {
  const spans = captureSpans(process.argv[2]);
  const first = spans[0];
  if (first) console.log('resource', JSON.stringify(first.resource));
  printTree(spans, process.argv.includes('--attrs'));
}

// The load generator, run as a child process (load-driver.ts forks it with tsx). It makes spans
// with the real SDK (sdk-spans.ts) and sends them with the real OTLP/protobuf exporter, gzip on,
// exactly as an instrumented agent would; it watches every HTTP answer the exporters get
// (retries included) so refusals and their Retry-After can be counted.
import { writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type * as Http from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { loadOtlpTypes } from '../../ingest/otlp/fixtures/otlp-trace-proto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type {
  ClosedLoopCommand,
  GeneratorCommand,
  GeneratorReply,
  GeneratorResult,
  LatencySummary,
  OpenLoopCommand,
} from './load-protocol';
import { createSpanSource } from './sdk-spans';
import type { SpanSource } from './sdk-spans';

const statuses = new Map<number, number>();
let refused = 0;
let refusedWithoutRetryAfter = 0;
// Why the server refused: the message of each 429/503 body, numbers folded to N.
const refusalReasons = new Map<string, number>();
const { rpcStatus } = loadOtlpTypes();

function noteRefusalReason(body: Buffer): void {
  const reason = refusalMessage(body)
    .replace(/;.*$/, '')
    .replace(/\d+(\.\d+)?/g, 'N')
    .slice(0, 100);
  refusalReasons.set(reason, (refusalReasons.get(reason) ?? 0) + 1);
}

/** The message of a refusal: a JSON error body's, or a protobuf google.rpc.Status's. */
function refusalMessage(body: Buffer): string {
  try {
    if (body[0] === 0x7b) {
      const parsed = JSON.parse(body.toString('utf8')) as {
        message?: string;
        error?: { message?: string };
      };
      return parsed.message ?? parsed.error?.message ?? '(no message)';
    }
    const status = rpcStatus.toObject(rpcStatus.decode(body)) as { message?: string };
    return status.message ?? '(no message)';
  } catch {
    return '(unreadable)';
  }
}

// The exporter loads `http` when it first sends; wrap its request() before that, so every
// response (first tries and retries) is seen.
const http = createRequire(import.meta.url)('node:http') as typeof Http;
const originalRequest = http.request;
http.request = function request(this: unknown, ...args: unknown[]): ClientRequest {
  const req = (originalRequest as (...a: unknown[]) => ClientRequest).apply(this, args);
  req.on('response', (res: IncomingMessage) => {
    const status = res.statusCode ?? 0;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status === 429 || status === 503) {
      refused++;
      if (!(Number(res.headers['retry-after']) > 0)) refusedWithoutRetryAfter++;
      // A second listener: the exporter reads the same chunks.
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => noteRefusalReason(Buffer.concat(chunks)));
    }
  });
  return req;
} as typeof http.request;
syncBuiltinESMExports();

interface Exporter {
  export(spans: ReadableSpan[], done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
}

function createExporter(url: string, key: string): Exporter {
  return new OTLPTraceExporter({
    url: `${url}/v1/traces`,
    headers: { Authorization: `Bearer ${key}` },
    compression: 'gzip' as never,
    timeoutMillis: 30_000,
    concurrencyLimit: 100,
  }) as unknown as Exporter;
}

function send(exporter: Exporter, spans: ReadableSpan[]): Promise<string | null> {
  return new Promise((resolve) =>
    exporter.export(spans, (result) =>
      resolve(result.code === 0 ? null : (result.error?.message ?? 'failed')),
    ),
  );
}

function summarize(values: number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return {
    count: sorted.length,
    p50: at(0.5) ?? Number.NaN,
    p99: at(0.99) ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

class Tally {
  spansAcked = 0;
  spansOffered = 0;
  exportsOk = 0;
  exportsFailed = 0;
  failures: Record<string, number> = {};
  lastAnswerAt = 0;
  generateMs = 0;
  private readonly startedAt = Date.now();
  private readonly statusesBefore = new Map(statuses);
  private readonly refusedBefore = refused;
  private readonly withoutBefore = refusedWithoutRetryAfter;
  private readonly reasonsBefore = new Map(refusalReasons);

  constructor(private readonly source: SpanSource) {}

  /** The next batch, with the CPU its making took (the process's: gzip threads may add a bit). */
  next(counted: boolean, last = false): ReadableSpan[] {
    const before = cpuMicros();
    const batch = last ? this.source.flush() : this.source.nextBatch();
    if (counted) this.generateMs += (cpuMicros() - before) / 1000;
    this.spansOffered += batch.length;
    return batch;
  }

  answered(spans: number, error: string | null): void {
    this.lastAnswerAt = Date.now();
    if (error === null) {
      this.exportsOk++;
      this.spansAcked += spans;
    } else {
      this.exportsFailed++;
      const reason = error.split(/\s+/).slice(0, 6).join(' ');
      this.failures[reason] = (this.failures[reason] ?? 0) + 1;
    }
  }

  result(
    window: { ms: number; spans: number; latencies: number[]; cpuMicros: number },
    generateMs: number,
  ): GeneratorResult {
    const httpStatuses: Record<string, number> = {};
    for (const [status, n] of statuses) {
      const delta = n - (this.statusesBefore.get(status) ?? 0);
      if (delta > 0) httpStatuses[String(status)] = delta;
    }
    const reasons: Record<string, number> = {};
    for (const [reason, n] of refusalReasons) {
      const delta = n - (this.reasonsBefore.get(reason) ?? 0);
      if (delta > 0) reasons[reason] = delta;
    }
    return {
      windowMs: window.ms,
      spansInWindow: window.spans,
      spansAcked: this.spansAcked,
      spansOffered: this.spansOffered,
      exportsOk: this.exportsOk,
      exportsFailed: this.exportsFailed,
      failures: this.failures,
      exportLatencyMs: summarize(window.latencies),
      httpStatuses,
      refused: refused - this.refusedBefore,
      refusedWithoutRetryAfter: refusedWithoutRetryAfter - this.withoutBefore,
      refusalReasons: reasons,
      lastAnswerAt: this.lastAnswerAt,
      elapsedMs: this.lastAnswerAt - this.startedAt,
      cpuCores: window.cpuMicros / 1000 / window.ms,
      generateCores: generateMs / window.ms,
    };
  }
}

async function closedLoop(command: ClosedLoopCommand): Promise<GeneratorResult> {
  const source = createSpanSource(command);
  const tally = new Tally(source);
  const exporters = Array.from({ length: command.lanes }, () =>
    createExporter(command.url, command.key),
  );
  const started = performance.now();
  const windowStart = started + command.warmupMs;
  const windowEnd = windowStart + command.durationMs;
  const latencies: number[] = [];
  let spansInWindow = 0;
  let cpuAtStart = 0;
  let cpuAtEnd = 0;
  let generateAtStart = 0;
  let generateAtEnd = 0;
  const startTimer = setTimeout(() => {
    cpuAtStart = cpuMicros();
    generateAtStart = tally.generateMs;
  }, command.warmupMs);
  const endTimer = setTimeout(() => {
    cpuAtEnd = cpuMicros();
    generateAtEnd = tally.generateMs;
  }, command.warmupMs + command.durationMs);

  await Promise.all(
    exporters.map(async (exporter) => {
      while (performance.now() < windowEnd) {
        const batch = tally.next(true);
        const t0 = performance.now();
        const error = await send(exporter, batch);
        const t1 = performance.now();
        tally.answered(batch.length, error);
        if (t1 >= windowStart && t1 <= windowEnd) {
          latencies.push(t1 - t0);
          if (error === null) spansInWindow += batch.length;
        }
      }
    }),
  );
  clearTimeout(startTimer);
  clearTimeout(endTimer);
  // Complete the runs begun: the rest of the last ones goes in one smaller batch.
  const rest = tally.next(false, true);
  if (rest.length > 0) tally.answered(rest.length, await send(exporters[0] as Exporter, rest));
  await Promise.all(exporters.map((e) => e.shutdown()));
  await source.close();
  return tally.result(
    {
      ms: command.durationMs,
      spans: spansInWindow,
      latencies,
      cpuMicros: cpuAtEnd - cpuAtStart,
    },
    generateAtEnd - generateAtStart,
  );
}

async function openLoop(command: OpenLoopCommand): Promise<GeneratorResult> {
  const source = createSpanSource(command);
  const tally = new Tally(source);
  const exporters = Array.from({ length: command.exporters }, () =>
    createExporter(command.url, command.key),
  );
  const batchesPerSecond = command.spansPerSecond / command.batchSize;
  const acked: string[] = [];
  const pending: Promise<void>[] = [];
  const latencies: number[] = [];
  const cpu0 = cpuMicros();
  const started = performance.now();
  let sent = 0;
  for (;;) {
    const elapsed = performance.now() - started;
    if (elapsed >= command.durationMs) break;
    const due = Math.floor((elapsed / 1000) * batchesPerSecond) + 1;
    while (sent < due) {
      const batch = tally.next(true);
      const exporter = exporters[sent % exporters.length] as Exporter;
      const t0 = performance.now();
      pending.push(
        send(exporter, batch).then((error) => {
          tally.answered(batch.length, error);
          latencies.push(performance.now() - t0);
          if (error === null && command.ackedIdsFile) {
            for (const span of batch) {
              const { traceId, spanId } = span.spanContext();
              acked.push(`${traceId}:${spanId}`);
            }
          }
        }),
      );
      sent++;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const windowMs = performance.now() - started;
  const cpu = cpuMicros() - cpu0;
  const generateMs = tally.generateMs;
  await Promise.all(pending);
  await Promise.all(exporters.map((e) => e.shutdown()));
  await source.close();
  if (command.ackedIdsFile) writeFileSync(command.ackedIdsFile, acked.join('\n'));
  const result = tally.result(
    { ms: windowMs, spans: tally.spansAcked, latencies, cpuMicros: cpu },
    generateMs,
  );
  return result;
}

async function handle(command: GeneratorCommand): Promise<void> {
  const reply = (message: GeneratorReply) => process.send?.(message);
  try {
    if (command.type === 'exit') process.exit(0);
    const result = command.type === 'closed' ? await closedLoop(command) : await openLoop(command);
    reply({ type: 'result', result });
  } catch (error) {
    reply({
      type: 'error',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
}

process.on('message', (command: GeneratorCommand) => void handle(command));
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' } satisfies GeneratorReply);

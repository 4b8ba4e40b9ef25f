// The workload's runs made by the real OpenTelemetry SDK: a TracerProvider whose span processor
// hands every ended span to us, so the exporter gets genuine ReadableSpans (hrtimes, resource,
// scope, attributes as the SDK keeps them) and the batching stays ours. Making spans costs the
// SDK ~15 µs each, as much as exporting them; so the source makes a pool of runs once and issues
// it again and again with fresh trace and span ids (each pass is new runs to the server), which
// keeps the generator from competing with the server for the machine's cores.
import { randomFillSync } from 'node:crypto';
import { context, trace } from '@opentelemetry/api';
import type { Context, SpanContext } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import { RESOURCE, runPlan } from './workload';
import type { PlannedSpan } from './workload';

export interface SpanSource {
  /** The next batch of exactly `batchSize` spans (runs may straddle two batches). */
  nextBatch(): ReadableSpan[];
  /** The rest of the runs begun: a smaller batch, or empty. */
  flush(): ReadableSpan[];
  close(): Promise<void>;
}

/** Runs made by the SDK per pool; each pass over the pool issues them with new ids. */
const POOL_RUNS = 32;

export function createSpanSource(options: {
  stepsPerRun: number;
  batchSize: number;
  /** Distinguishes the runs of one source from another's (agents, variants, step counts). */
  seed: number;
  /** Start time of the first run; later runs start 5 s apart. */
  startMs?: number;
  /** Runs made by the SDK before they are issued again with new ids (default 32). */
  poolRuns?: number;
}): SpanSource {
  const pool = makeRuns(options, options.poolRuns ?? POOL_RUNS);
  const pending: ReadableSpan[] = [];
  let taken = 0;
  let provider: TracerProvider | null = pool.provider;
  return {
    nextBatch() {
      while (pending.length - taken < options.batchSize) pending.push(...reissue(pool.spans));
      const batch = pending.slice(taken, taken + options.batchSize);
      taken += options.batchSize;
      if (taken > 8 * options.batchSize) {
        pending.splice(0, taken);
        taken = 0;
      }
      return batch;
    },
    flush() {
      const rest = pending.slice(taken);
      pending.length = 0;
      taken = 0;
      return rest;
    },
    close: async () => {
      await provider?.shutdown();
      provider = null;
    },
  };
}

/** `runs` runs through the SDK: every span as the exporter would receive it, children first. */
function makeRuns(
  options: { stepsPerRun: number; seed: number; startMs?: number },
  runs: number,
): { spans: ReadableSpan[]; provider: TracerProvider } {
  const spans: ReadableSpan[] = [];
  const collector: SpanProcessor = {
    onStart: () => {},
    onEnd: (span) => void spans.push(span),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const provider = new TracerProvider({
    resource: resourceFromAttributes(RESOURCE),
    spanProcessors: [collector],
  });
  const tracer = provider.getTracer('bench');
  const emit = (plan: PlannedSpan, parent: Context) => {
    const span = tracer.startSpan(
      plan.name,
      { startTime: plan.startMs, attributes: plan.attributes },
      parent,
    );
    const inner = trace.setSpan(parent, span);
    for (const child of plan.children) emit(child, inner);
    span.end(plan.endMs);
  };
  const firstStart = options.startMs ?? Date.now() - 86_400_000;
  for (let r = 0; r < runs; r++) {
    const seed = options.seed * 1_000_003 + r;
    emit(runPlan(options.stepsPerRun, firstStart + r * 5000, seed), context.active());
  }
  return { spans, provider };
}

const random = Buffer.alloc(64 * 1024);
let randomAt = random.length;
function hexId(bytes: number): string {
  if (randomAt + bytes > random.length) {
    randomFillSync(random);
    randomAt = 0;
  }
  randomAt += bytes;
  return random.toString('hex', randomAt - bytes, randomAt);
}

/** The pool's spans as new runs: same content, fresh trace and span ids, parents remapped. */
function reissue(spans: readonly ReadableSpan[]): ReadableSpan[] {
  const traces = new Map<string, string>();
  const ids = new Map<string, string>();
  const traceOf = (id: string) => traces.get(id) ?? set(traces, id, hexId(16));
  const spanOf = (id: string) => ids.get(id) ?? set(ids, id, hexId(8));
  return spans.map((span) => {
    const own = span.spanContext();
    const context: SpanContext = {
      ...own,
      traceId: traceOf(own.traceId),
      spanId: spanOf(own.spanId),
    };
    const parent = span.parentSpanContext;
    const parentSpanContext = parent && {
      ...parent,
      traceId: traceOf(parent.traceId),
      spanId: spanOf(parent.spanId),
    };
    // Everything else (times, attributes, resource, scope) is read from the SDK's span.
    return Object.create(span, {
      spanContext: { value: () => context },
      parentSpanContext: { value: parentSpanContext },
    }) as ReadableSpan;
  });
}

function set<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.set(key, value);
  return value;
}

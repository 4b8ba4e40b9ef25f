// Loads the sample runs into a running Loopscope through its own /v1/traces, with the real OTLP
// exporter. Idempotent: run ids, trace and span ids and timestamps are fixed by the batch, and a
// batch already stored keeps the anchor it was first sent with, so sending it again changes
// nothing (the server stores a span sent twice once).
import type { PriceTable } from '../trajectory/pricing';
import type { TokenUsage } from '../kit/index';
import { runTask } from './agent-loop';
import { DEMO_DAYS, demoPlan } from './demo-plan';
import type { SampleName } from './demo-plan';
import { createPipeline } from './pipeline';
import { Random, VirtualClock } from './random';

export interface DemoTarget {
  /** Loopscope's origin (the read API lives there): http://127.0.0.1:3000. */
  origin: string;
  tracesUrl: string;
  headers: Record<string, string>;
}

export interface DemoSummary {
  runs: number;
  spans: number;
  /** True when this batch was stored already and was sent again unchanged. */
  alreadyLoaded: boolean;
  from: string;
  to: string;
  bySample: Record<SampleName, number>;
}

export interface DemoOptions {
  /** The price table the harnesses count their cost budgets by (the server prices by its own). */
  prices: PriceTable;
  /** The batch's anchor when it is sent for the first time; default now. */
  now?: number;
  log?: (message: string) => void;
}

const BATCH = 'loopscope-demo-v1';

export async function loadSampleRuns(
  target: DemoTarget,
  options: DemoOptions,
): Promise<DemoSummary> {
  const plan = demoPlan();
  const first = plan[0];
  if (!first) throw new Error('the demo plan is empty');
  const stored = await storedStart(target, first.runId);
  const anchor =
    stored === null
      ? Math.floor((options.now ?? Date.now()) / 60_000) * 60_000
      : stored - first.offsetMs;
  const { prices } = options;
  const price = (model: string, usage: TokenUsage) =>
    prices.cost(model, {
      inputTokens: usage.inputTokens ?? 0,
      outputTokens: usage.outputTokens ?? 0,
      cacheReadTokens: usage.cacheReadTokens ?? 0,
    });

  const pipeline = createPipeline({ tracesUrl: target.tracesUrl, headers: target.headers });
  const bySample = {} as Record<SampleName, number>;
  for (const [k, entry] of plan.entries()) {
    pipeline.ids.reseed(`${BATCH}\n${entry.runId}`);
    const clock = new VirtualClock(anchor + entry.offsetMs);
    const rng = new Random(`${BATCH}\n${entry.runId}`);
    const task = entry.build({ runId: entry.runId, variant: entry.variant, rng, clock });
    await runTask(task, { tracer: pipeline.tracer, clock, rng, price });
    bySample[entry.sample] = (bySample[entry.sample] ?? 0) + 1;
    // The first run is the batch's marker: once it is stored, a replay finds the anchor.
    if (k === 0) await pipeline.flush();
    if ((k + 1) % 10 === 0) options.log?.(`${k + 1} of ${plan.length} runs sent`);
  }
  const delivery = await pipeline.shutdown();
  if (delivery.failed > 0) {
    throw new Error(
      `Loopscope refused ${delivery.failed} of ${delivery.failed + delivery.exported} spans: ${delivery.lastError}`,
    );
  }
  return {
    runs: plan.length,
    spans: delivery.exported,
    alreadyLoaded: stored !== null,
    from: new Date(anchor - DEMO_DAYS * 86_400_000).toISOString(),
    to: new Date(anchor).toISOString(),
    bySample,
  };
}

/** When the batch's marker run started, if the server has it. */
async function storedStart(target: DemoTarget, runId: string): Promise<number | null> {
  let response: Response;
  try {
    response = await fetch(`${target.origin}/api/v1/runs/${encodeURIComponent(runId)}`, {
      headers: target.headers,
      cache: 'no-store',
    });
  } catch (error) {
    throw new Error(`No Loopscope answers at ${target.origin}: ${(error as Error).message}`);
  }
  if (response.status === 404) return null;
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as {
      error?: { message?: string };
    } | null;
    throw new Error(
      `Loopscope at ${target.origin} answered ${response.status}: ${body?.error?.message ?? response.statusText}`,
    );
  }
  const { run } = (await response.json()) as { run: { startedAt: string } };
  return Date.parse(run.startedAt);
}

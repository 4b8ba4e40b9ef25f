// A realistic agent workload: runs of `stepsPerRun` steps, each step span with an LLM call and a
// tool call inside, ~20 attributes per span, roots last (as exporters send them). One plan feeds
// both the pre-decoded spans (`runSpans`, for in-process writes) and the SDK spans the load
// generator exports (sdk-spans.ts), so every stage of the bench sees the same shape of data.
import { randomBytes } from 'node:crypto';
import type { AttributeValue, Attributes } from '../../ingest/otlp/types';
import type { ValidSpan } from '../../ingest/validate';

const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4'];
const TOOLS = ['search', 'read_file', 'edit_file', 'run_tests', 'list_dir'];

/** Attribute values the OTel API accepts as well (primitives and arrays of them). */
export type PlanAttributes = Record<string, string | number | boolean | string[]>;

export interface PlannedSpan {
  name: string;
  startMs: number;
  endMs: number;
  attributes: PlanAttributes;
  /** Ended (and so exported) before their parent. */
  children: PlannedSpan[];
}

export const RESOURCE: PlanAttributes = {
  'service.name': 'bench-agent',
  'service.version': '1.4.2',
  'deployment.environment.name': 'bench',
  'telemetry.sdk.language': 'nodejs',
  'telemetry.sdk.name': 'opentelemetry',
  'telemetry.sdk.version': '3.1.1',
  'host.name': 'bench-host',
};

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** One run as a tree: the root, its steps, and an LLM and a tool call inside each step. */
export function runPlan(stepsPerRun: number, startMs: number, seed: number): PlannedSpan {
  const steps: PlannedSpan[] = [];
  for (let k = 0; k < stepsPerRun; k++) {
    const t = startMs + k * 1000;
    const tool = TOOLS[(seed + k) % TOOLS.length] as string;
    const model = MODELS[(seed + k) % MODELS.length] as string;
    const args = JSON.stringify({
      path: `src/module-${(seed * 7 + k) % 50}.ts`,
      query: `symbol ${k % 9}`,
      limit: 20,
    });
    const llm: PlannedSpan = {
      name: `chat ${model}`,
      startMs: t + 1,
      endMs: t + 600,
      children: [],
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'openai',
        'gen_ai.request.model': model,
        'gen_ai.response.model': model,
        'gen_ai.request.temperature': 0.2,
        'gen_ai.request.max_tokens': 4096,
        'gen_ai.usage.input_tokens': 1500 + ((seed + k) % 700),
        'gen_ai.usage.output_tokens': 120 + ((seed * 3 + k) % 200),
        'gen_ai.usage.cache_read.input_tokens': 800,
        'gen_ai.response.id': `chatcmpl-${hex(6)}`,
        'gen_ai.response.finish_reasons': ['tool_calls'],
        'server.address': 'api.openai.com',
        'server.port': 443,
        'http.response.status_code': 200,
        'loop.context_tokens': 2300,
        'app.request.id': hex(6),
        'app.tenant': 'bench',
        'app.region': 'eu-west-1',
        'app.attempt': 1,
        'app.cache': true,
      },
    };
    const toolCall: PlannedSpan = {
      name: `execute_tool ${tool}`,
      startMs: t + 610,
      endMs: t + 900,
      children: [],
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': tool,
        'gen_ai.tool.call.id': `call_${hex(6)}`,
        'gen_ai.tool.type': 'function',
        'gen_ai.tool.call.arguments': args,
        'gen_ai.tool.call.result': JSON.stringify({
          ok: true,
          lines: (seed + k) % 120,
          excerpt: 'export function handler(req) { return ok(req); }',
        }),
        'tool.duration_ms': 290,
        'app.request.id': hex(6),
        'app.tenant': 'bench',
        'app.region': 'eu-west-1',
        'app.sandbox': 'firecracker',
        'app.cwd': '/workspace/repo',
        'app.exit_code': 0,
        'app.stdout_bytes': 4096,
        'app.stderr_bytes': 0,
        'app.retries': 0,
        'app.cached': false,
        'app.user': 'bench',
        'app.tool_version': '2.3.1',
        'app.timeout_ms': 30000,
      },
    };
    steps.push({
      name: `step ${k + 1} ${tool}`,
      startMs: t,
      endMs: t + 950,
      children: [llm, toolCall],
      attributes: {
        'loop.step': k + 1,
        'loop.action': tool,
        'loop.action.args': args,
        'loop.state.hash': `state-${seed}-${Math.floor(k / 2)}`,
        'loop.progress': Math.max(0, 40 - k * 2),
        'loop.verdict': k === stepsPerRun - 1 ? 'pass' : 'fail',
        'loop.verdict.source': 'environment',
        'loop.verdict.fields': JSON.stringify({ tests: k === stepsPerRun - 1, lint: true }),
        'app.request.id': hex(6),
        'app.tenant': 'bench',
        'app.region': 'eu-west-1',
        'app.worker': `w-${seed % 8}`,
        'app.queue': 'default',
        'app.priority': 3,
        'app.iteration': k,
        'app.branch': 'main',
        'app.commit': hex(10),
        'app.sandbox': 'firecracker',
        'app.trace_sampled': true,
        'app.cost_center': 'research',
      },
    });
  }
  return {
    name: 'invoke_agent bench',
    startMs,
    endMs: startMs + stepsPerRun * 1000 + 50,
    children: steps,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'bench-agent',
      'loop.agent': `agent-${seed % 4}`,
      'loop.variant': seed % 2 === 0 ? 'controlled' : 'uncontrolled',
      'loop.goal': 'Migrate the seven queryRaw call sites to the typed client',
      'loop.exit.reason': seed % 5 === 0 ? 'step_ceiling' : 'goal_met',
      'loop.limits.max_steps': 40,
      'loop.limits.max_usd': 2,
      'loop.limits.wall_clock_ms': 900000,
      'loop.verified': seed % 5 !== 0,
      'loop.progress.direction': 'down',
      'app.request.id': hex(6),
      'app.tenant': 'bench',
      'app.region': 'eu-west-1',
      'app.trigger': 'nightly',
      'app.repo': 'acme/api',
      'app.branch': 'main',
      'app.user': 'bench',
      'app.attempt': 1,
      'app.sampled': true,
    },
  };
}

/** Spans per run of `stepsPerRun` steps: the root plus three per step. */
export const spansPerRun = (stepsPerRun: number) => 1 + 3 * stepsPerRun;

function attrs(values: PlanAttributes): Attributes {
  return Object.assign(Object.create(null) as Attributes, values as Record<string, AttributeValue>);
}

const resource = attrs(RESOURCE);

/** Every span of one run as ingest's validator would hand them on, children before parents. */
export function runSpans(stepsPerRun: number, startMs: number, seed: number): ValidSpan[] {
  const traceId = hex(16);
  const spans: ValidSpan[] = [];
  const visit = (span: PlannedSpan, parentSpanId: string | null) => {
    const spanId = hex(8);
    for (const child of span.children) visit(child, spanId);
    spans.push({
      traceId,
      spanId,
      parentSpanId,
      name: span.name,
      kind: 1,
      startMs: span.startMs,
      endMs: span.endMs,
      attributes: attrs(span.attributes),
      events: [],
      statusCode: 0,
      statusMessage: '',
      resource,
      scopeName: 'bench',
    });
  };
  visit(runPlan(stepsPerRun, startMs, seed), null);
  return spans;
}

/** `runs` runs, flattened and cut into exporter-sized batches (a run may span two batches). */
export function workload(
  runs: number,
  stepsPerRun: number,
  batchSize = 512,
  startMs = Date.now() - 86_400_000,
): ValidSpan[][] {
  const all: ValidSpan[] = [];
  for (let r = 0; r < runs; r++) all.push(...runSpans(stepsPerRun, startMs + r * 5000, r));
  const batches: ValidSpan[][] = [];
  for (let k = 0; k < all.length; k += batchSize) batches.push(all.slice(k, k + batchSize));
  return batches;
}

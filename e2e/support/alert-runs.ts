// OTLP/JSON bodies of whole runs for the alert tests, written span by span with the conventions'
// attributes (docs/conventions.md), so the same body can be sent again byte for byte.
export interface TestStep {
  action: string;
  args?: string;
  state?: string;
  verdict?: 'pass' | 'fail';
  verdictSource?: 'environment' | 'self';
  costUsd?: number;
}

export interface TestRun {
  traceId: string;
  agent: string;
  /** `loop.exit.reason` on the root; absent: the run ends naming no reason. */
  exitReason?: string;
  steps: TestStep[];
  startMs?: number;
  /** `loop.verified` on the root: a review outside the agent confirmed the outcome. */
  verified?: boolean;
}

type Attribute = { key: string; value: Record<string, unknown> };

function attributes(values: Record<string, string | number | boolean | undefined>): Attribute[] {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => ({
      key,
      value:
        typeof value === 'boolean'
          ? { boolValue: value }
          : typeof value === 'number'
            ? Number.isInteger(value)
              ? { intValue: value }
              : { doubleValue: value }
            : { stringValue: value },
    }));
}

const nanos = (ms: number) => `${BigInt(Math.round(ms)) * 1_000_000n}`;

export function runBody(run: TestRun): string {
  const start = run.startMs ?? Date.now() - 600_000;
  const rootId = `${run.traceId.slice(0, 14)}00`;
  const spans = [
    {
      traceId: run.traceId,
      spanId: rootId,
      name: `invoke_agent ${run.agent}`,
      startTimeUnixNano: nanos(start),
      endTimeUnixNano: nanos(start + 1000 * (run.steps.length + 1)),
      attributes: attributes({
        'gen_ai.operation.name': 'invoke_agent',
        'loop.agent': run.agent,
        'loop.goal': 'alert test',
        'loop.exit.reason': run.exitReason,
        'loop.verified': run.verified,
      }),
    },
    ...run.steps.map((step, k) => ({
      traceId: run.traceId,
      spanId: `${run.traceId.slice(0, 14)}${(k + 1).toString(16).padStart(2, '0')}`,
      parentSpanId: rootId,
      name: `step ${k + 1}`,
      startTimeUnixNano: nanos(start + 1000 * (k + 1)),
      endTimeUnixNano: nanos(start + 1000 * (k + 1) + 900),
      attributes: attributes({
        'loop.step': k + 1,
        'loop.action': step.action,
        'loop.action.args': step.args ?? '{}',
        'loop.state.hash': step.state,
        'loop.verdict': step.verdict,
        'loop.verdict.source': step.verdictSource,
        'loop.cost_usd': step.costUsd,
      }),
    })),
  ];
  return JSON.stringify({ resourceSpans: [{ resource: {}, scopeSpans: [{ spans }] }] });
}

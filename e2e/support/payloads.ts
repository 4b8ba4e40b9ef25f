// OTLP/JSON bodies built directly (no SDK), for load and hostile-input tests that need many
// distinct spans fast.
import { randomBytes } from 'node:crypto';

export function spanBatch(
  spans: number,
  options: { stepsPerRun?: number; attributeBytes?: number } = {},
): { body: string; ids: string[] } {
  const stepsPerRun = options.stepsPerRun ?? 10;
  const padding = 'x'.repeat(options.attributeBytes ?? 200);
  const ids: string[] = [];
  const list: object[] = [];
  let traceId = '';
  let rootId = '';
  const now = Date.now();
  for (let k = 0; k < spans; k++) {
    if (k % stepsPerRun === 0) {
      traceId = randomBytes(16).toString('hex');
      rootId = randomBytes(8).toString('hex');
    }
    const spanId = randomBytes(8).toString('hex');
    ids.push(`${traceId}:${spanId}`);
    list.push({
      traceId,
      spanId,
      parentSpanId: rootId,
      name: `step ${k % stepsPerRun}`,
      startTimeUnixNano: `${now - 60_000 + k}000000`,
      endTimeUnixNano: `${now - 59_000 + k}000000`,
      attributes: [
        { key: 'loop.step', value: { intValue: (k % stepsPerRun) + 1 } },
        { key: 'loop.action', value: { stringValue: 'search' } },
        {
          key: 'loop.action.args',
          value: { stringValue: JSON.stringify({ q: k % 7, pad: padding }) },
        },
        { key: 'loop.cost_usd', value: { doubleValue: 0.001 } },
      ],
    });
  }
  const body = JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'load' } }] },
        scopeSpans: [{ spans: list }],
      },
    ],
  });
  return { body, ids };
}

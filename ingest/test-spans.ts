// Builders for spans as validation hands them on, for the normalisation tests.
import { PriceTable } from '../trajectory/pricing';
import { assembleRun } from '../derive/assemble-run';
import type { AssembleOptions, AssembledRun } from '../derive/assemble-run';
import type { AttributeValue, Attributes, OtlpEvent } from './otlp/types';
import { extractSpanFacts } from './span-facts';
import type { ValidSpan } from './validate';

export const TRACE = '0af7651916cd43dd8448eb211c80319c';

export function attrs(values: Record<string, AttributeValue>): Attributes {
  return Object.assign(Object.create(null) as Attributes, values);
}

export function event(name: string, values: Record<string, AttributeValue>, timeMs = 0): OtlpEvent {
  return { name, timeMs, attributes: attrs(values) };
}

export function span(
  id: number,
  parent: number | null,
  name: string,
  startMs: number,
  endMs: number | null,
  attributes: Record<string, AttributeValue> = {},
  extra: Partial<
    Pick<ValidSpan, 'events' | 'statusCode' | 'statusMessage' | 'traceId' | 'resource'>
  > = {},
): ValidSpan {
  return {
    traceId: extra.traceId ?? TRACE,
    spanId: id.toString(16).padStart(16, '0'),
    parentSpanId: parent === null ? null : parent.toString(16).padStart(16, '0'),
    name,
    kind: 1,
    startMs,
    endMs,
    attributes: attrs(attributes),
    events: extra.events ?? [],
    statusCode: extra.statusCode ?? 0,
    statusMessage: extra.statusMessage ?? '',
    resource: extra.resource ?? attrs({ 'service.name': 'test-service' }),
    scopeName: 'test',
  };
}

export const TEST_PRICE_TABLE = new PriceTable([
  {
    model: 'gpt-4o',
    inputPerMTok: 2.5,
    outputPerMTok: 10,
    cacheReadPerMTok: 1.25,
    checkedAt: '2025-06-01',
  },
  {
    model: 'claude-sonnet-4',
    inputPerMTok: 3,
    outputPerMTok: 15,
    cacheReadPerMTok: 0.3,
    checkedAt: '2025-06-01',
  },
]);

export function assemble(spans: ValidSpan[], options?: AssembleOptions): AssembledRun {
  const stored = spans.map((s) => ({ ...s, facts: extractSpanFacts(s) }));
  return assembleRun(stored, TEST_PRICE_TABLE, options);
}

/**
 * A finished run of one step in its own trace: an agent span and a step span under it, with any
 * further attributes on the step.
 */
export function oneStepRun(
  traceId: string,
  agent: string,
  stepAttributes: Record<string, AttributeValue> = {},
): ValidSpan[] {
  return [
    span(
      1,
      null,
      'agent',
      0,
      1000,
      { 'loop.agent': agent, 'loop.exit.reason': 'goal_met' },
      {
        traceId,
      },
    ),
    span(
      2,
      1,
      'step',
      10,
      20,
      { 'loop.step': 1, 'loop.action': 'search', ...stepAttributes },
      { traceId },
    ),
  ];
}

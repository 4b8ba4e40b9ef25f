import { describe, expect, it } from 'vitest';
import { extractSpanFacts } from './span-facts';
import { span } from './test-spans';
import { validateSpans } from './validate';
import { BOUNDS, checkNumber } from './value-bounds';

describe('checkNumber', () => {
  it.each([
    [BOUNDS.stepNumber, 0, 0],
    [BOUNDS.stepNumber, 2 ** 31 - 1, 2 ** 31 - 1],
    [BOUNDS.stepNumber, '12', 12],
    [BOUNDS.tokens, 1e12, 1e12],
    [BOUNDS.usd, 0.0001, 0.0001],
    [BOUNDS.progress, -5, -5],
    [BOUNDS.usd, -0, 0],
  ])('takes %o %o', (bound, raw, expected) => {
    expect(checkNumber(raw, bound)).toBe(expected);
  });

  it.each([
    [BOUNDS.stepNumber, 2 ** 31, /too large/],
    [BOUNDS.stepNumber, 3_000_000_000, /too large/],
    [BOUNDS.stepNumber, -1, /below 0/],
    [BOUNDS.stepNumber, 2.5, /not a whole number/],
    [BOUNDS.tokens, '9223372036854775807', /too large/],
    [BOUNDS.tokens, 1e12 + 1, /too large/],
    [BOUNDS.usd, 1e308, /too large/],
    [BOUNDS.usd, -0.01, /below 0/],
    [BOUNDS.usd, 'Infinity', /not finite/],
    [BOUNDS.progress, 'NaN', /not a number/],
    [BOUNDS.progress, 'three', /not a number/],
    [BOUNDS.progress, true, /not a number/],
    [BOUNDS.progress, ['1'], /not a number/],
  ])('refuses %o %o, saying why and that it is stored as unknown', (bound, raw, why) => {
    const result = checkNumber(raw, bound);
    expect(result).toMatch(why);
    expect(result).toMatch(/stored as unknown/);
  });
});

describe('numbers read from a span', () => {
  const facts = (attributes: Parameters<typeof span>[5]) =>
    extractSpanFacts(span(1, null, 'x', 0, 1, attributes));

  it('stores values past an edge as unknown and names each problem', () => {
    const f = facts({
      'loop.step': 3_000_000_000,
      'gen_ai.usage.input_tokens': '9223372036854775807',
      'gen_ai.usage.output_tokens': 12,
      'loop.cost_usd': 1e308,
      'loop.context_tokens': 1e20,
      'loop.progress': 'lots',
    });
    expect(f.step).toBeUndefined();
    expect(f.inputTokens).toBeUndefined();
    expect(f.outputTokens).toBe(12);
    expect(f.costUsd).toBeUndefined();
    expect(f.contextTokens).toBeUndefined();
    expect(f.progress).toBeUndefined();
    expect(f.problems?.map((p) => p.key)).toEqual([
      'loop.step',
      'loop.progress',
      'loop.context_tokens',
      'loop.cost_usd',
      'gen_ai.usage.input_tokens',
    ]);
    expect(f.problems?.[0]).toEqual({
      key: 'loop.step',
      value: '3000000000',
      problem: 'too large: stored as unknown; expected a step number from 0 to 2147483647',
    });
  });

  it('has no problems when every value fits', () => {
    expect(facts({ 'loop.step': 3, 'loop.cost_usd': 0.2 }).problems).toBeUndefined();
  });

  it('checks the LangGraph step inside metadata JSON too', () => {
    const f = facts({ metadata: JSON.stringify({ langgraph_step: 1e10 }) });
    expect(f.frameworkStep).toBeUndefined();
    expect(f.problems?.[0]?.key).toBe('metadata.langgraph_step');
  });
});

describe('times out of order', () => {
  it('stores a span that ends before it starts as ending at its start, and says so', () => {
    const raw = { ...span(1, null, 'x', 5000, 1000), parentSpanId: '', endMs: 1000 };
    const [valid] = validateSpans({ spans: [raw] }).spans;
    expect(valid?.endMs).toBe(5000);
    expect(valid?.problems).toEqual([
      {
        key: 'endTimeUnixNano',
        value: '4000 ms before the start',
        problem: 'ends before it starts: stored as ending at its start',
      },
    ]);
    expect(extractSpanFacts(valid!).problems?.[0]?.key).toBe('endTimeUnixNano');
  });
});

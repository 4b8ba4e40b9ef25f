// The span tree's pure parts: where long text folds, and the raw JSON the copy button gives.
import { describe, expect, it } from 'vitest';
import type { SpanTreeSpan } from '@/lib/api-types';
import { foldHead } from './folded-text';
import { rawJson } from './span-tree';

describe('foldHead', () => {
  it('shows short text whole and folds at 600 characters or 12 lines', () => {
    expect(foldHead('short')).toBeNull();
    expect(foldHead('x'.repeat(600))).toBeNull();
    expect(foldHead('x'.repeat(601))).toBe('x'.repeat(600));
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    expect(foldHead(lines)?.split('\n')).toHaveLength(12);
    expect(foldHead(Array.from({ length: 12 }, () => 'a').join('\n'))).toBeNull();
  });
});

describe('rawJson', () => {
  it('keeps attribute keys such as __proto__ as data, and every event', () => {
    const span: SpanTreeSpan = {
      traceId: 't',
      spanId: 's',
      parentSpanId: null,
      depth: 0,
      name: 'chat',
      kind: 1,
      role: 'llm',
      startMs: 1,
      endMs: 2,
      statusCode: 0,
      statusMessage: '',
      model: null,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: null,
      messages: null,
      attributes: [
        ['__proto__', { polluted: true }],
        ['a', '<b>x</b>'],
      ],
      events: [{ name: 'gen_ai.choice', timeMs: 2, attributes: [['message', 'hi']] }],
    };
    const copied = JSON.parse(JSON.stringify(rawJson(span))) as {
      attributes: Record<string, unknown>;
      events: { attributes: Record<string, unknown> }[];
    };
    expect(Object.keys(copied.attributes)).toEqual(['__proto__', 'a']);
    expect(copied.attributes.a).toBe('<b>x</b>');
    expect(copied.events[0]?.attributes.message).toBe('hi');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

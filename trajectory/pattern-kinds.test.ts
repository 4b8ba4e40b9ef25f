import { describe, expect, it } from 'vitest';
import { listedLabels } from './pattern-kinds';

describe('listed pattern labels', () => {
  it('tell apart patterns that would read the same, and leave the rest as they are', () => {
    const same = { kind: 'repeat' as const, agent: 'a', label: 'search {"q":"x"}' };
    expect(
      listedLabels([
        { ...same, signature: 'abcdef0123' },
        { ...same, signature: '987654fedc' },
        { ...same, kind: 'revisit', signature: '1111112222' },
        { ...same, agent: 'b', signature: '3333334444' },
        { kind: 'stall', agent: null, label: '', signature: '5555556666' },
      ]),
    ).toEqual([
      'search {"q":"x"} #abcdef',
      'search {"q":"x"} #987654',
      'search {"q":"x"}',
      'search {"q":"x"}',
      '(no action named)',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { describeChange } from './labels';

describe('a change in dollars', () => {
  it('below the shown precision reads "no change", never "+$<0.0001"', () => {
    expect(describeChange({ absolute: 3e-8, relative: 0 })).toEqual({
      text: 'no change',
      direction: 'same',
    });
    expect(describeChange({ absolute: -0.00004, relative: -0.001 }).text).toBe('no change');
    expect(describeChange({ absolute: 0, relative: null }).text).toBe('no change');
  });

  it('at or above it keeps its sign, amount and share', () => {
    expect(describeChange({ absolute: 0.25, relative: 0.5 })).toEqual({
      text: '▲ +$0.250 (+50%)',
      direction: 'worse',
    });
    expect(describeChange({ absolute: -0.0001, relative: null }).text).toBe('▼ −$0.0001');
  });
});

import { describe, expect, it } from 'vitest';
import { isStalePrice, priceAgeDays } from './report-prices';

const now = Date.parse('2026-11-30T10:00:00Z');

describe('price age', () => {
  it.each([
    ['2026-11-30', 0, false],
    ['2026-09-01', 90, false], // 90 days is still fresh
    ['2026-08-31', 91, true],
    ['2025-06-01', 547, true],
  ])('checked %s: %i days old, stale %s', (checkedAt, days, stale) => {
    expect(priceAgeDays(checkedAt, now)).toBe(days);
    expect(isStalePrice(checkedAt, now)).toBe(stale);
  });
  it('treats a date that is not one as stale', () => {
    expect(priceAgeDays('last year', now)).toBeNull();
    expect(isStalePrice('2026-13-45', now)).toBe(true);
  });
});

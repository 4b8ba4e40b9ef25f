// How old a price is. A rate checked more than 90 days ago may no longer be the provider's.
import { DAY_MS } from './report-weeks';

export const STALE_PRICE_DAYS = 90;

/** Whole days from a `YYYY-MM-DD` check date to now (UTC); null for a date that is not one. */
export function priceAgeDays(checkedAt: string, nowMs: number): number | null {
  const checked = Date.parse(`${checkedAt}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(checkedAt) || Number.isNaN(checked)) return null;
  return Math.floor((nowMs - checked) / DAY_MS);
}

export function isStalePrice(checkedAt: string, nowMs: number): boolean {
  const age = priceAgeDays(checkedAt, nowMs);
  return age === null || age > STALE_PRICE_DAYS;
}

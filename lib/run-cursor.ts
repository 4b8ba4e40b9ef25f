// The runs list's keyset cursor: the last row's sort value and id, as base64url JSON. Pure (atob
// and TextDecoder, no Buffer), so a page can check a cursor before reading, in the browser too.
import type { RunSort } from './filters';

export interface RunCursor {
  value: string | number;
  id: string;
}

export function encodeRunCursor(sort: RunSort, value: string | number, id: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify([sort, value, id]));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The cursor's value and id, or null when it is not one the list handed out for this sort. */
export function decodeRunCursor(cursor: string, sort: RunSort): RunCursor | null {
  try {
    const base64 = cursor.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const [cursorSort, value, id] = JSON.parse(new TextDecoder().decode(bytes)) as unknown[];
    if (cursorSort !== sort || typeof id !== 'string') return null;
    if (sort === 'startedAt') {
      return typeof value === 'string' && !Number.isNaN(Date.parse(value))
        ? { value: new Date(value).toISOString(), id }
        : null;
    }
    // stepCount compares as the column's integer: a fraction or an overflow is not a cursor.
    const valid =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (sort !== 'stepCount' || (Number.isInteger(value) && Math.abs(value) < 2 ** 31));
    return valid ? { value, id } : null;
  } catch {
    return null;
  }
}

export const CURSOR_PROBLEM = 'is not one this list handed out (or the sort changed)';

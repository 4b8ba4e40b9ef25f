// Each step row's digest (what replaceSteps compares with the stored one), remembered for long
// runs: a long run is derived again at every batch, and hashing its thousands of unchanged rows
// each time was a large part of the write. A row equal to the one held keeps its digest unhashed.
// It is a memo of a pure function of the row, so it is right whatever the database holds.
import { createHash } from 'node:crypto';
import type { StepRow } from './save-steps';

export interface DigestedStep {
  row: StepRow;
  fingerprint: string;
  /** The row serialised, when it was hashed now (an insert reuses it). */
  json: string | null;
}

/** Runs with fewer steps are hashed in full: it is cheap, and they would crowd the memo. */
export const MIN_REMEMBERED_STEPS = 500;
const REMEMBERED_STEPS = 60_000;

export function fingerprintOf(json: string): string {
  return createHash('sha256').update(json).digest('base64url').slice(0, 22);
}

export class StepDigestMemo {
  // Insertion order is recency.
  private readonly runs = new Map<string, Map<number, DigestedStep>>();
  private held = 0;

  constructor(private readonly capacity = REMEMBERED_STEPS) {}

  /** The rows of one run with their digests; remembers them when the run is long. */
  digest(projectId: string, runId: string, rows: readonly StepRow[]): DigestedStep[] {
    const key = `${projectId}\u0000${runId}`;
    const before = this.runs.get(key);
    if (before) {
      this.runs.delete(key);
      this.held -= before.size;
    }
    const digested = rows.map((row) => {
      const seen = before?.get(row.ordinal);
      // The same row object again (derive/run-rows.ts keeps unchanged ones) is the same row.
      if (seen && (seen.row === row || sameRow(seen.row, row))) {
        return seen.row === row ? seen : { row, fingerprint: seen.fingerprint, json: null };
      }
      const json = JSON.stringify(row);
      return { row, fingerprint: fingerprintOf(json), json };
    });
    if (rows.length >= MIN_REMEMBERED_STEPS && rows.length <= this.capacity) {
      for (const [oldest, of] of this.runs) {
        if (this.held + rows.length <= this.capacity) break;
        this.runs.delete(oldest);
        this.held -= of.size;
      }
      // Updated in place where it can be: a long run's rows are mostly the ones held.
      const held = before ?? new Map<number, DigestedStep>();
      for (const d of digested) {
        if (held.get(d.row.ordinal) !== d) held.set(d.row.ordinal, { ...d, json: null });
      }
      const remembered =
        held.size === rows.length ? held : new Map(digested.map((d) => [d.row.ordinal, d]));
      this.runs.set(key, remembered);
      this.held += remembered.size;
    }
    return digested;
  }

  get steps(): number {
    return this.held;
  }
}

/** The same values field by field (what the row's serialisation is made of). */
function sameRow(a: StepRow, b: StepRow): boolean {
  let fields = 0;
  for (const k in a) {
    fields++;
    if (!sameValue(a[k as keyof StepRow], b[k as keyof StepRow])) return false;
  }
  return fields === Object.keys(b).length;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) =>
    sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

// Loop signals, exactly as docs/conventions.md defines them. Each detector is a scan that takes the
// steps one at a time, in order, and decides each from it and the steps before it: a run's signals
// go on from where they were when steps are added (derive-run.ts), and a whole run is one pass
// (linear). Positions are 0..n-1; derive-run maps them to step numbers.
import type { ProgressDirection, StepInput } from './step';

/** The run carries state hashes: they are its observed states (else its result hashes are). */
export function usesStateHashes(steps: readonly StepInput[]): boolean {
  return steps.some((s) => s.stateHash !== null);
}

/**
 * The state after a step: its state hash, or, when the run carries no state hash at all, its
 * result hash (calls whose outputs are indistinguishable) unless the call failed. Null where the
 * step has neither.
 */
export function observedState(step: StepInput, stateHashes: boolean): string | null {
  // A failed call's output says how it failed, not what the world is (OpenAI Agents answers every
  // tool error with the same redacted text): it stands in for no state.
  if (stateHashes) return step.stateHash;
  return step.errorClass === null ? step.resultHash : null;
}

export function observedStates(steps: readonly StepInput[]): (string | null)[] {
  const stateHashes = usesStateHashes(steps);
  return steps.map((s) => observedState(s, stateHashes));
}

interface ActionSeen {
  at: number;
  /** The group of the first known state at or after `at`; -1 until one arrives. */
  firstGroup: number;
}

/**
 * Position of the earlier step each step repeats, or null. Never a poll (the step waits for the
 * world) nor a retry right after the same call failed `transient`; but the same call after it
 * failed the same way twice in a row (a loop hazard) is a repeat whatever the states say. With no
 * known state in the whole run (`withStates` false), the same action three times in a row is one.
 */
export class RepeatScan {
  // Equal consecutive known states share a group; groups only grow along the run, so "every known
  // state since step i is the same" is "the first known state at or after i and the latest one
  // share a group".
  private group = -1;
  private previousState: string | null = null;
  private lastKnown = -1;
  private readonly lastByAction = new Map<string, ActionSeen>();
  /** Actions seen since the latest known state, waiting for the next one's group. */
  private readonly waiting: ActionSeen[] = [];

  constructor(private readonly withStates: boolean) {}

  /** Step `j` of `steps` (those before it pushed already), with its observed state. */
  push(steps: readonly StepInput[], j: number, state: string | null, poll: boolean): number | null {
    const found = this.withStates ? this.byState(steps[j]?.actionHash ?? null, j, state) : null;
    if (poll) return null;
    if (failedTwiceAlike(steps, j)) return j - 1;
    const previous = steps[j - 1];
    const sameCall = previous !== undefined && previous.actionHash === steps[j]?.actionHash;
    if (sameCall && previous.errorClass === 'transient') return null;
    return this.withStates ? found : threeInARow(steps, j);
  }

  private byState(action: string | null, j: number, state: string | null): number | null {
    let found: number | null = null;
    if (action !== null) {
      const seen = this.lastByAction.get(action);
      // No known state since it: nothing to compare.
      if (seen && this.lastKnown >= seen.at && seen.firstGroup === this.group) found = seen.at;
      const entry = { at: j, firstGroup: -1 };
      this.lastByAction.set(action, entry);
      this.waiting.push(entry);
    }
    if (state !== null) {
      if (state !== this.previousState) this.group++;
      this.previousState = state;
      this.lastKnown = j;
      for (const entry of this.waiting) entry.firstGroup = this.group;
      this.waiting.length = 0;
    }
    return found;
  }
}

/** Steps j-1 and j-2 are the call of step j, and both failed with the same error class. */
function failedTwiceAlike(steps: readonly StepInput[], j: number): boolean {
  const [a, b, c] = [steps[j - 2], steps[j - 1], steps[j]];
  if (!a || !b || !c || c.actionHash === null) return false;
  if (a.actionHash !== c.actionHash || b.actionHash !== c.actionHash) return false;
  return a.errorClass !== null && a.errorClass === b.errorClass;
}

/** Without state or result hashes, the same action three times in a row is a repeat. */
function threeInARow(steps: readonly StepInput[], j: number): number | null {
  const action = steps[j]?.actionHash ?? null;
  if (j < 2 || action === null) return null;
  return steps[j - 1]?.actionHash === action && steps[j - 2]?.actionHash === action ? j - 1 : null;
}

/** Position of the step whose state each step returns to (A/B/A), or null. */
export class RevisitScan {
  private readonly lastSeen = new Map<string, number>();
  private lastKnown = -1;

  push(j: number, state: string | null): number | null {
    if (state === null) return null;
    const i = this.lastSeen.get(state);
    // i is the latest step with this state, so any known state after it is a different one.
    const found = i !== undefined && this.lastKnown > i ? i : null;
    this.lastSeen.set(state, j);
    this.lastKnown = j;
    return found;
  }
}

/**
 * Where the progress metric has gone `window` progress-bearing steps without beating its best,
 * the position of the step that set that best; null elsewhere. Marked once per streak.
 */
export class StallScan {
  private readonly window: number;
  private best: number | null = null;
  private bestAt = -1;
  private since = 0;

  constructor(private readonly options: { window: number; direction: ProgressDirection }) {
    this.window = Math.max(1, Math.floor(options.window));
  }

  push(k: number, progress: number | null): number | null {
    if (progress === null || !Number.isFinite(progress)) return null;
    const { best } = this;
    const improved =
      best === null || (this.options.direction === 'down' ? progress < best : progress > best);
    if (improved) {
      this.best = progress;
      this.bestAt = k;
      this.since = 0;
      return null;
    }
    this.since++;
    return this.since === this.window ? this.bestAt : null;
  }
}

/** Marks the step where one tool reached `threshold` failures in a row (once per streak). */
export class ToolCircuitScan {
  private readonly threshold: number;
  private readonly failuresInARow = new Map<string, number>();

  constructor(options: { threshold: number }) {
    this.threshold = Math.max(1, Math.floor(options.threshold));
  }

  push(step: StepInput): boolean {
    if (step.action === null) return false;
    if (step.errorClass === null) {
      this.failuresInARow.set(step.action, 0);
      return false;
    }
    const count = (this.failuresInARow.get(step.action) ?? 0) + 1;
    this.failuresInARow.set(step.action, count);
    return count === this.threshold;
  }
}

export function detectRepeats(
  steps: readonly StepInput[],
  states: readonly (string | null)[],
  polls: readonly boolean[] = [],
): (number | null)[] {
  const scan = new RepeatScan(states.some((s) => s !== null));
  return steps.map((_, j) => scan.push(steps, j, states[j] ?? null, polls[j] === true));
}

export function detectRevisits(states: readonly (string | null)[]): (number | null)[] {
  const scan = new RevisitScan();
  return states.map((state, j) => scan.push(j, state));
}

export function detectStalls(
  steps: readonly StepInput[],
  options: { window: number; direction: ProgressDirection },
): (number | null)[] {
  const scan = new StallScan(options);
  return steps.map((step, k) => scan.push(k, step.progress));
}

export function detectToolCircuits(
  steps: readonly StepInput[],
  options: { threshold: number },
): boolean[] {
  const scan = new ToolCircuitScan(options);
  return steps.map((step) => scan.push(step));
}

// Loop signals, exactly as docs/conventions.md defines them. Every detector is one pass over the steps
// (linear), works on positions 0..n-1 and reports positions; derive-run maps them to step numbers.
import type { ProgressDirection, StepInput } from './step';

/**
 * The state after each step: its state hash, or, when the run carries no state hash at all, its
 * result hash (calls whose outputs are indistinguishable) unless the call failed. Null where the
 * step has neither.
 */
export function observedStates(steps: readonly StepInput[]): (string | null)[] {
  const hasStateHashes = steps.some((s) => s.stateHash !== null);
  // A failed call's output says how it failed, not what the world is (OpenAI Agents answers every
  // tool error with the same redacted text): it stands in for no state.
  return steps.map((s) =>
    hasStateHashes ? s.stateHash : s.errorClass === null ? s.resultHash : null,
  );
}

/**
 * Position of the earlier step each step repeats, or null. Never a poll (`polls[k]`: the step waits
 * for the world) nor a retry right after the same call failed `transient`; but the same call after
 * it failed the same way twice in a row (a loop hazard) is a repeat whatever the states say.
 */
export function detectRepeats(
  steps: readonly StepInput[],
  states: readonly (string | null)[],
  polls: readonly boolean[] = [],
): (number | null)[] {
  const found = repeatsByState(steps, states);
  return found.map((of, j) => {
    if (polls[j]) return null;
    if (failedTwiceAlike(steps, j)) return j - 1;
    const previous = steps[j - 1];
    const sameCall = previous !== undefined && previous.actionHash === steps[j]?.actionHash;
    if (sameCall && previous.errorClass === 'transient') return null;
    return of;
  });
}

/** Steps j-1 and j-2 are the call of step j, and both failed with the same error class. */
function failedTwiceAlike(steps: readonly StepInput[], j: number): boolean {
  const [a, b, c] = [steps[j - 2], steps[j - 1], steps[j]];
  if (!a || !b || !c || c.actionHash === null) return false;
  if (a.actionHash !== c.actionHash || b.actionHash !== c.actionHash) return false;
  return a.errorClass !== null && a.errorClass === b.errorClass;
}

function repeatsByState(
  steps: readonly StepInput[],
  states: readonly (string | null)[],
): (number | null)[] {
  const result: (number | null)[] = new Array<number | null>(steps.length).fill(null);
  if (states.every((s) => s === null)) return repeatsWithoutState(steps, result);

  // Equal consecutive known states share a group; groups only grow along the run, so "every known
  // state in [i, j-1] is the same" is "the first and last known states in that range share a group".
  const group = new Array<number>(steps.length).fill(-1);
  const lastKnownAtOrBefore = new Array<number>(steps.length).fill(-1);
  let currentGroup = -1;
  let previousState: string | null = null;
  let lastKnown = -1;
  for (let k = 0; k < steps.length; k++) {
    const state = states[k] ?? null;
    if (state !== null) {
      if (state !== previousState) currentGroup++;
      previousState = state;
      group[k] = currentGroup;
      lastKnown = k;
    }
    lastKnownAtOrBefore[k] = lastKnown;
  }
  const firstKnownAtOrAfter = new Array<number>(steps.length).fill(steps.length);
  for (let k = steps.length - 1, next = steps.length; k >= 0; k--) {
    if ((states[k] ?? null) !== null) next = k;
    firstKnownAtOrAfter[k] = next;
  }

  const lastByAction = new Map<string, number>();
  for (let j = 0; j < steps.length; j++) {
    const action = steps[j]?.actionHash ?? null;
    if (action === null) continue;
    const i = lastByAction.get(action);
    lastByAction.set(action, j);
    if (i === undefined) continue;
    const lastKnownInRange = lastKnownAtOrBefore[j - 1] ?? -1;
    if (lastKnownInRange < i) continue; // no known state between i and j-1: nothing to compare
    const firstKnownInRange = firstKnownAtOrAfter[i] ?? steps.length;
    if (group[firstKnownInRange] === group[lastKnownInRange]) result[j] = i;
  }
  return result;
}

/** Without state or result hashes, the same action three times in a row is a repeat. */
function repeatsWithoutState(
  steps: readonly StepInput[],
  result: (number | null)[],
): (number | null)[] {
  for (let j = 2; j < steps.length; j++) {
    const action = steps[j]?.actionHash ?? null;
    if (
      action !== null &&
      steps[j - 1]?.actionHash === action &&
      steps[j - 2]?.actionHash === action
    ) {
      result[j] = j - 1;
    }
  }
  return result;
}

/** Position of the step whose state each step returns to (A/B/A), or null. */
export function detectRevisits(states: readonly (string | null)[]): (number | null)[] {
  const result: (number | null)[] = new Array<number | null>(states.length).fill(null);
  const lastSeen = new Map<string, number>();
  let lastKnown = -1;
  for (let j = 0; j < states.length; j++) {
    const state = states[j] ?? null;
    if (state === null) continue;
    const i = lastSeen.get(state);
    // i is the latest step with this state, so any known state after it is a different one.
    if (i !== undefined && lastKnown > i) result[j] = i;
    lastSeen.set(state, j);
    lastKnown = j;
  }
  return result;
}

/**
 * For each step where the progress metric has gone `window` progress-bearing steps without beating
 * its best, the position of the step that set that best; null elsewhere. Marked once per streak.
 */
export function detectStalls(
  steps: readonly StepInput[],
  options: { window: number; direction: ProgressDirection },
): (number | null)[] {
  const result: (number | null)[] = new Array<number | null>(steps.length).fill(null);
  const window = Math.max(1, Math.floor(options.window));
  let best: number | null = null;
  let bestAt = -1;
  let since = 0;
  for (let k = 0; k < steps.length; k++) {
    const progress = steps[k]?.progress ?? null;
    if (progress === null || !Number.isFinite(progress)) continue;
    const improved =
      best === null || (options.direction === 'down' ? progress < best : progress > best);
    if (improved) {
      best = progress;
      bestAt = k;
      since = 0;
      continue;
    }
    since++;
    if (since === window) result[k] = bestAt;
  }
  return result;
}

/** Marks the step where one tool reached `threshold` failures in a row (once per streak). */
export function detectToolCircuits(
  steps: readonly StepInput[],
  options: { threshold: number },
): boolean[] {
  const result = new Array<boolean>(steps.length).fill(false);
  const threshold = Math.max(1, Math.floor(options.threshold));
  const failuresInARow = new Map<string, number>();
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k];
    if (!step || step.action === null) continue;
    if (step.errorClass === null) {
      failuresInARow.set(step.action, 0);
      continue;
    }
    const count = (failuresInARow.get(step.action) ?? 0) + 1;
    failuresInARow.set(step.action, count);
    if (count === threshold) result[k] = true;
  }
  return result;
}

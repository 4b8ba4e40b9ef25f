// Compact step builders for the table-driven tests of trajectory/.
import type { StepInput } from './step';

export function step(index: number, fields: Partial<StepInput> = {}): StepInput {
  return {
    index,
    action: fields.actionHash ?? null,
    actionHash: null,
    stateHash: null,
    resultHash: null,
    progress: null,
    verdict: null,
    verdictSource: null,
    errorClass: null,
    costUsd: 0,
    ...fields,
  };
}

/** Steps 1..n from parallel lists; `null` leaves a field out. */
export function steps(
  columns: {
    actions?: (string | null)[];
    states?: (string | null)[];
    results?: (string | null)[];
    progress?: (number | null)[];
    costs?: number[];
    failed?: boolean[];
  },
  length = Math.max(
    columns.actions?.length ?? 0,
    columns.states?.length ?? 0,
    columns.results?.length ?? 0,
    columns.progress?.length ?? 0,
  ),
): StepInput[] {
  return Array.from({ length }, (_, k) =>
    step(k + 1, {
      action: columns.actions?.[k] ?? null,
      actionHash: columns.actions?.[k] ?? null,
      stateHash: columns.states?.[k] ?? null,
      resultHash: columns.results?.[k] ?? null,
      progress: columns.progress?.[k] ?? null,
      costUsd: columns.costs?.[k] ?? 0,
      errorClass: columns.failed?.[k] ? 'transient' : null,
    }),
  );
}

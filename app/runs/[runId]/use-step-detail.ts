'use client';

import type { StepDetailState } from '@/components/trajectory/types';
import { useCachedJson } from '@/components/view/use-cached-json';
import { spanUrl, stepDetailSchema } from './span-schema';

/** The selected step's span, loaded once it stays selected for a moment, kept per step. */
export function useStepDetail(
  runId: string,
  project: string | undefined,
  ordinal: number | null,
): StepDetailState {
  const state = useCachedJson(
    ordinal === null ? null : spanUrl(runId, ordinal, project),
    stepDetailSchema,
    200,
  );
  return state.status === 'ready' ? { status: 'ready', data: state.value } : state;
}

'use client';

import { useEffect, useState } from 'react';
import type { StepDetailData, StepDetailState } from '@/components/trajectory/types';
import { spanUrl, stepDetailSchema } from './span-schema';

const DEBOUNCE_MS = 90;
const CACHE_SIZE = 200;

interface Loaded {
  details: ReadonlyMap<number, StepDetailData>;
  errors: ReadonlyMap<number, string>;
}

/** The selected step's span, loaded once it stays selected for a moment (holding j does not
 * fire a request per row), kept per step. */
export function useStepDetail(
  runId: string,
  project: string | undefined,
  ordinal: number | null,
): StepDetailState {
  const [loaded, setLoaded] = useState<Loaded>({ details: new Map(), errors: new Map() });
  const known = ordinal !== null && loaded.details.has(ordinal);

  useEffect(() => {
    if (ordinal === null || known) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(spanUrl(runId, ordinal, project), {
          signal: controller.signal,
          headers: { accept: 'application/json' },
        });
        const body: unknown = await response.json();
        if (!response.ok) {
          const message = (body as { error?: { message?: string } }).error?.message;
          throw new Error(message ?? `the server answered ${response.status}`);
        }
        const data = stepDetailSchema.parse(body);
        setLoaded((prev) => {
          const details = new Map(prev.details.size >= CACHE_SIZE ? [] : prev.details);
          return { ...prev, details: details.set(ordinal, data) };
        });
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : 'unknown error';
        setLoaded((prev) => ({ ...prev, errors: new Map(prev.errors).set(ordinal, message) }));
      }
    }, DEBOUNCE_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [runId, project, ordinal, known]);

  if (ordinal === null) return { status: 'idle' };
  const data = loaded.details.get(ordinal);
  if (data) return { status: 'ready', data };
  const message = loaded.errors.get(ordinal);
  return message === undefined ? { status: 'loading' } : { status: 'error', message };
}

'use client';

import { useEffect, useState } from 'react';
import type { SpanTree } from '@/lib/api-types';
import type { SpanTreeState } from '@/components/trajectory/span-tree';
import { spanTreeSchema } from './span-schema';

const DEBOUNCE_MS = 90;
const CACHE_SIZE = 100;

/** A span tree from `url` (null: none wanted), loaded once it stays wanted for a moment, kept per
 * URL: the tree of each step is asked for only when that step is selected. */
export function useSpanTree(url: string | null): SpanTreeState {
  const [trees, setTrees] = useState<ReadonlyMap<string, SpanTree>>(new Map());
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const known = url !== null && trees.has(url);

  useEffect(() => {
    if (url === null || known) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(url, {
          signal: controller.signal,
          headers: { accept: 'application/json' },
        });
        const body: unknown = await response.json();
        if (!response.ok) {
          const message = (body as { error?: { message?: string } }).error?.message;
          throw new Error(message ?? `the server answered ${response.status}`);
        }
        const tree = spanTreeSchema.parse(body);
        setTrees((prev) => new Map(prev.size >= CACHE_SIZE ? [] : prev).set(url, tree));
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : 'unknown error';
        setErrors((prev) => new Map(prev).set(url, message));
      }
    }, DEBOUNCE_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [url, known]);

  if (url === null) return { status: 'idle' };
  const tree = trees.get(url);
  if (tree) return { status: 'ready', tree };
  const message = errors.get(url);
  return message === undefined ? { status: 'loading' } : { status: 'error', message };
}

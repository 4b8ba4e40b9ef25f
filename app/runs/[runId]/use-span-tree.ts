'use client';

import type { SpanTreeState } from '@/components/trajectory/span-tree';
import { useCachedJson } from '@/components/view/use-cached-json';
import { spanTreeSchema } from './span-schema';

/** A span tree from `url` (null: none wanted), kept per URL: the tree of each step is asked for
 * only when that step is selected. */
export function useSpanTree(url: string | null): SpanTreeState {
  const state = useCachedJson(url, spanTreeSchema, 100);
  return state.status === 'ready' ? { status: 'ready', tree: state.value } : state;
}

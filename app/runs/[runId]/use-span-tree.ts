'use client';

import { useState } from 'react';
import type { SpanTreeState } from '@/components/trajectory/span-tree';
import { useCachedJson } from '@/components/view/use-cached-json';
import type { SpanTree } from '@/lib/api-types';
import { spanTreeSchema, treeUrlWithLimit } from './span-schema';

/** A span tree from `url` (null: none wanted) up to `limit` spans, kept per URL: the tree of each
 * step is asked for only when that step is selected. While a larger limit of the same tree
 * loads, the smaller one stays on screen (its rows, what is open, where the reader is). */
export function useSpanTree(url: string | null, limit: number): SpanTreeState {
  const state = useCachedJson(url && treeUrlWithLimit(url, limit), spanTreeSchema, 100);
  const [shown, setShown] = useState<{ url: string; tree: SpanTree } | null>(null);
  if (state.status === 'ready') {
    // The last tree shown, kept as React keeps state from an earlier render.
    if (url !== null && (shown?.url !== url || shown.tree !== state.value)) {
      setShown({ url, tree: state.value });
    }
    return { status: 'ready', tree: state.value, loadingMore: false };
  }
  if (state.status === 'loading' && url !== null && shown?.url === url) {
    return { status: 'ready', tree: shown.tree, loadingMore: true };
  }
  return state;
}

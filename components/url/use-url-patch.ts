'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback } from 'react';
import { hrefWith } from './href';
import type { QueryPatch } from './href';

/** Client components change the view only through the URL: this pushes a patched one. */
export function useUrlPatch(): {
  href: (patch: QueryPatch) => string;
  push: (patch: QueryPatch) => void;
} {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const href = useCallback(
    (patch: QueryPatch) => hrefWith(pathname, new URLSearchParams(search.toString()), patch),
    [pathname, search],
  );
  const push = useCallback((patch: QueryPatch) => router.push(href(patch)), [router, href]);
  return { href, push };
}

'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/**
 * Renders the page again from the server every `everyMs` while `waiting` and the tab is visible:
 * for a server-rendered list with entries still in flight (alert deliveries pending), so what
 * happens to them shows without a reload. Renders nothing.
 */
export function RefreshWhile({ waiting, everyMs = 2000 }: { waiting: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') router.refresh();
    }, everyMs);
    return () => window.clearInterval(timer);
  }, [waiting, everyMs, router]);
  return null;
}

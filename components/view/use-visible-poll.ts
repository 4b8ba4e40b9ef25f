'use client';

import { useEffect } from 'react';

/**
 * Asks `url` every `everyMs` while the tab is visible and hands each JSON answer to `onBody`;
 * failed polls are skipped (a restart, the network away: the next one asks again). Stops when
 * `url` is null or the component goes.
 */
export function useVisiblePoll(
  url: string | null,
  everyMs: number,
  onBody: (body: unknown) => void,
): void {
  useEffect(() => {
    if (url === null) return;
    let stopped = false;
    const poll = async () => {
      if (document.visibilityState !== 'visible') return;
      try {
        const response = await fetch(url, { cache: 'no-store' });
        if (!response.ok) return;
        const body: unknown = await response.json();
        if (!stopped) onBody(body);
      } catch {
        // asked again at the next tick
      }
    };
    const timer = window.setInterval(() => void poll(), everyMs);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [url, everyMs, onBody]);
}

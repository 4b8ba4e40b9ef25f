'use client';

import { useEffect, useState } from 'react';
import styles from './ingest-backlog.module.css';

const POLL_MS = 4000;

/**
 * "N requests behind" while export requests answered 200 wait in the spool to be stored: what
 * the pages show may then lack their spans. Reads `/api/health` every few seconds while the tab
 * is visible; shows nothing once the spool is empty.
 */
export function IngestBacklog({ initial }: { initial: number }) {
  const [behind, setBehind] = useState(initial);
  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      if (document.visibilityState !== 'visible') return;
      try {
        const response = await fetch('/api/health', { cache: 'no-store' });
        if (!response.ok) return;
        const body = (await response.json()) as { spool?: { requests?: unknown; stuck?: unknown } };
        const requests = body.spool?.requests;
        const stuck = typeof body.spool?.stuck === 'number' ? body.spool.stuck : 0;
        if (!stopped && typeof requests === 'number') setBehind(Math.max(0, requests - stuck));
      } catch {
        // The server is restarting or the network is away: the next poll asks again.
      }
    };
    const timer = window.setInterval(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, []);
  return (
    <div aria-live="polite" className={styles.slot}>
      {behind > 0 ? (
        <p className={styles.notice} role="status">
          {behind === 1 ? '1 request behind' : `${behind.toLocaleString('en-US')} requests behind`}
          <span className={styles.detail}>
            {' '}
            · received and safe, still being stored; counts here may lag
          </span>
        </p>
      ) : null}
    </div>
  );
}

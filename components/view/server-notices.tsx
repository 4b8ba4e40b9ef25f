'use client';

import { useEffect, useState } from 'react';
import type { ReadSource } from '@/lib/api-types';
import styles from './server-notices.module.css';

const POLL_MS = 4000;

export interface ServerState {
  /** Export requests answered 200 and still waiting in the spool (stuck ones left out). */
  behind: number;
  /** Where the dashboard's reads go, when a standby is set (DATABASE_READ_URL); else null. */
  reads: ReadSource | null;
}

/**
 * What the pages shown may lack, under the header: "N requests behind" while export requests
 * answered 200 wait in the spool to be stored, and, with a standby set, whether the reads come
 * from it and how far behind it is. Reads `/api/health` every few seconds while the tab is
 * visible.
 */
export function ServerNotices({ initial }: { initial: ServerState }) {
  const [state, setState] = useState(initial);
  useEffect(() => {
    let stopped = false;
    const poll = async () => {
      if (document.visibilityState !== 'visible') return;
      try {
        const response = await fetch('/api/health', { cache: 'no-store' });
        if (!response.ok) return;
        const body = (await response.json()) as {
          spool?: { requests?: unknown; stuck?: unknown };
          reads?: ReadSource | null;
        };
        const requests = body.spool?.requests;
        const stuck = typeof body.spool?.stuck === 'number' ? body.spool.stuck : 0;
        if (stopped || typeof requests !== 'number') return;
        setState({ behind: Math.max(0, requests - stuck), reads: body.reads ?? null });
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
  const { behind, reads } = state;
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
      {reads ? <ReadsNotice reads={reads} /> : null}
    </div>
  );
}

function ReadsNotice({ reads }: { reads: ReadSource }) {
  if (reads.from === 'standby') {
    return (
      <p className={styles.quiet} data-testid="reads-from">
        Read from a standby, {lagText(reads.lagSeconds)}
      </p>
    );
  }
  return (
    <p className={styles.notice} data-testid="reads-from" role="status">
      Read from the primary
      <span className={styles.detail}> · {reads.reason ?? 'the standby is not used'}</span>
    </p>
  );
}

function lagText(seconds: number | null): string {
  if (seconds === null) return 'its lag unknown';
  if (seconds < 1) return 'up to date';
  return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s behind`;
}

'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useState } from 'react';
import { useVisiblePoll } from '@/components/view/use-visible-poll';
import styles from './new-runs-pill.module.css';

const POLL_MS = 4000;

/**
 * While the home page is open, asks every few seconds how many runs there are from the window's
 * start on, and offers those beyond what the page counted as "N new runs" rather than moving
 * rows under the reader; clicking shows them (the page is read again). Polls only while the tab
 * is visible.
 */
export function NewRunsPill({
  from,
  baseline,
  project,
  agent,
  variant,
}: {
  from: string;
  /** The runs from `from` on when the page was read. */
  baseline: number;
  project: string | undefined;
  agent: string | undefined;
  variant: string | undefined;
}) {
  const router = useRouter();
  // Counted against one baseline: once the page is read again, an old count means nothing.
  const [counted, setCounted] = useState({ baseline, runs: baseline });
  const count = counted.baseline === baseline ? Math.max(0, counted.runs - baseline) : 0;
  const query = new URLSearchParams({ from });
  if (project) query.set('project', project);
  if (agent) query.set('agent', agent);
  if (variant) query.set('variant', variant);
  const onBody = useCallback(
    (body: unknown) => {
      const runs = (body as { runs?: unknown }).runs;
      if (typeof runs === 'number') setCounted({ baseline, runs });
    },
    [baseline],
  );
  useVisiblePoll(`/api/ui/new-runs?${query}`, POLL_MS, onBody);
  return (
    <div aria-live="polite" className={styles.slot}>
      {count > 0 ? (
        <button type="button" className={styles.pill} onClick={() => router.refresh()}>
          {count === 1 ? '1 new run' : `${count} new runs`} · show
        </button>
      ) : null}
    </div>
  );
}

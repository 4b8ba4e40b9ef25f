'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useState } from 'react';
import { useVisiblePoll } from '@/components/view/use-visible-poll';
import styles from '@/components/runs/new-runs-pill.module.css';

const POLL_MS = 4000;

interface Progress {
  stepCount: number;
  endedAt: string | null;
}

/**
 * On the page of a run still going: asks every few seconds how far it has got, and offers the
 * steps beyond those shown ("3 new steps", or that the run has ended) rather than changing the
 * page under the reader; clicking reads the page again in place. Stops asking once it has ended.
 */
export function LiveRunPill({
  runId,
  project,
  shownSteps,
}: {
  runId: string;
  project: string | undefined;
  shownSteps: number;
}) {
  const router = useRouter();
  // Judged against the steps shown: once the page is read again, an old answer means nothing.
  const [seen, setSeen] = useState<{ shownSteps: number; progress: Progress | null }>({
    shownSteps,
    progress: null,
  });
  const progress = seen.shownSteps === shownSteps ? seen.progress : null;
  const query = new URLSearchParams({ run: runId });
  if (project) query.set('project', project);
  const onBody = useCallback(
    (body: unknown) => {
      const { stepCount, endedAt } = body as Partial<Progress>;
      if (typeof stepCount !== 'number') return;
      setSeen({ shownSteps, progress: { stepCount, endedAt: endedAt ?? null } });
    },
    [shownSteps],
  );
  useVisiblePoll(progress?.endedAt ? null : `/api/ui/run-progress?${query}`, POLL_MS, onBody);
  const added = progress ? Math.max(0, progress.stepCount - shownSteps) : 0;
  const ended = progress?.endedAt != null;
  const label =
    added > 0
      ? `${added === 1 ? '1 new step' : `${added} new steps`}${ended ? ', run ended' : ''} · show`
      : ended
        ? 'The run has ended · show'
        : null;
  return (
    <div aria-live="polite" className={styles.slot}>
      {label ? (
        <button type="button" className={styles.pill} onClick={() => router.refresh()}>
          {label}
        </button>
      ) : null}
    </div>
  );
}

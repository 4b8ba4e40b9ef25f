'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LaneLegend } from '@/components/trajectory/lane-legend';
import { Lanes } from '@/components/trajectory/lanes';
import { SpanTreeView } from '@/components/trajectory/span-tree';
import spanStyles from '@/components/trajectory/span-tree.module.css';
import { StepDetail } from '@/components/trajectory/step-detail';
import { StepList, stepRowId } from '@/components/trajectory/step-list';
import { expandTrajectory } from '@/components/trajectory/lane-model';
import type { TrajectoryWire } from '@/components/trajectory/types';
import type { ExitCategory } from '@/trajectory/exit-categories';
import { SPAN_TREE_LIMIT } from '@/lib/api-types';
import { runTreeUrl, stepTreeUrl } from './span-schema';
import { useSpanTree } from './use-span-tree';
import { useStepDetail } from './use-step-detail';
import styles from './trajectory.module.css';

/** The interactive part of the trajectory view: one selected step, shared by the lanes, the list,
 * the detail and the step's span tree, kept in the URL (`?step=N`) with history.replaceState: no
 * server round trip; or the run's whole trace as a tree (`?view=trace`). Trees load on demand. */
export function TrajectoryClient({
  runId,
  project,
  wire,
  exitCategory,
  progressDirection,
  wastedUsd,
  initialOrdinal,
  progressName,
  initialView,
}: {
  runId: string;
  project: string | undefined;
  wire: TrajectoryWire;
  exitCategory: ExitCategory;
  progressDirection: 'down' | 'up';
  wastedUsd: number;
  initialOrdinal: number | null;
  progressName: string | null;
  initialView: 'steps' | 'trace' | null;
}) {
  const trajectory = useMemo(() => expandTrajectory(wire), [wire]);
  const { steps } = trajectory;
  const [selected, setSelected] = useState<number | null>(initialOrdinal);
  const [view, setView] = useState<'steps' | 'trace'>(
    steps.length === 0 ? 'trace' : (initialView ?? 'steps'),
  );
  const detail = useStepDetail(runId, project, selected);
  const stepTreeSource =
    view === 'steps' && selected !== null ? stepTreeUrl(runId, selected, project) : null;
  const runTreeSource = view === 'trace' ? runTreeUrl(runId, project) : null;
  // How many spans each tree was asked for, by its URL: "show more" raises it.
  const [limits, setLimits] = useState<ReadonlyMap<string, number>>(() => new Map());
  const limitOf = (url: string | null) => (url && limits.get(url)) || SPAN_TREE_LIMIT;
  const showMore = (url: string | null) => (limit: number) => {
    if (url) setLimits((prev) => new Map(prev).set(url, limit));
  };
  const stepTree = useSpanTree(stepTreeSource, limitOf(stepTreeSource));
  const runTree = useSpanTree(runTreeSource, limitOf(runTreeSource));
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const step = selected === null ? null : steps[selected - 1];
    const url = new URL(window.location.href);
    if (step) url.searchParams.set('step', String(step.index));
    else url.searchParams.delete('step');
    if (view === 'trace' && steps.length > 0) url.searchParams.set('view', 'trace');
    else url.searchParams.delete('view');
    window.history.replaceState(null, '', url);
  }, [selected, steps, view]);

  // A link to a step (`?step=N`) opens on it: its row in view and the list focused, so j / k and
  // the arrow keys go on from there. The list mounts its rows a frame after it scrolls.
  useEffect(() => {
    if (initialOrdinal === null) return;
    let frames = 0;
    let handle = 0;
    const reveal = () => {
      const row = document.getElementById(stepRowId(initialOrdinal));
      if (row) {
        row.closest<HTMLElement>('[role="grid"]')?.focus({ preventScroll: true });
        row.scrollIntoView({ block: 'center' });
      } else if (frames++ < 30) {
        handle = requestAnimationFrame(reveal);
      }
    };
    handle = requestAnimationFrame(reveal);
    return () => cancelAnimationFrame(handle);
  }, [initialOrdinal]);

  const select = useCallback(
    (ordinal: number) => setSelected(Math.min(steps.length, Math.max(1, ordinal))),
    [steps.length],
  );

  // j / k anywhere on the page (the step list handles them itself, with the arrow keys).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // The list handled it already (React listens on the document too, and runs first).
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (steps.length === 0 || view !== 'steps') return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (event.key !== 'j' && event.key !== 'k') return;
      event.preventDefault();
      setSelected((s) =>
        Math.min(steps.length, Math.max(1, (s ?? 0) + (event.key === 'j' ? 1 : -1))),
      );
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [steps.length, view]);

  const traceTree = (
    <SpanTreeView
      key="trace"
      state={runTree}
      label="Trace"
      openModelCalls={false}
      onShowMore={showMore(runTreeSource)}
    />
  );
  if (steps.length === 0) {
    return (
      <>
        <p className={styles.empty}>
          This run has no steps: none of its spans carried <code>loop.step</code>, a framework loop
          cycle, or a tool call. Its spans as they were sent:
        </p>
        {traceTree}
      </>
    );
  }
  const tabs = (
    <div role="tablist" aria-label="Run view" className={spanStyles.tabs}>
      <button
        type="button"
        role="tab"
        className={spanStyles.tab}
        aria-selected={view === 'steps'}
        onClick={() => setView('steps')}
      >
        Steps
      </button>
      <button
        type="button"
        role="tab"
        className={spanStyles.tab}
        aria-selected={view === 'trace'}
        onClick={() => setView('trace')}
      >
        Trace
      </button>
    </div>
  );
  if (view === 'trace') {
    return (
      <>
        {tabs}
        {traceTree}
      </>
    );
  }
  const stateLabel = trajectory.stateSource === 'result' ? 'Result' : 'State';
  const selectedStep = selected === null ? null : (steps[selected - 1] ?? null);
  return (
    <>
      {tabs}
      <section className={styles.lanesPanel} aria-label="Trajectory">
        <Lanes
          steps={steps}
          stateLabel={stateLabel}
          progressDirection={progressDirection}
          exitCategory={exitCategory}
          wastedUsd={wastedUsd}
          selected={selected}
          onSelect={select}
          progressName={progressName}
        />
        <LaneLegend trajectory={trajectory} stateLabel={stateLabel} />
      </section>
      <div className={styles.split}>
        <StepList steps={steps} selected={selected} onSelect={select} />
        <StepDetail step={selectedStep} detail={detail} stepCount={steps.length} />
      </div>
      {selectedStep ? (
        <SpanTreeView
          key={stepTreeSource}
          state={stepTree}
          label={`Spans of step ${selectedStep.index}`}
          openModelCalls
          onShowMore={showMore(stepTreeSource)}
        />
      ) : null}
    </>
  );
}

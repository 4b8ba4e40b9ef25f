import Link from 'next/link';
import type { RunDetail } from '@/lib/api-types';
import { EXIT_CATEGORY_META } from '@/trajectory/exit-categories';
import { formatCount, formatDateTime, formatDuration, formatUsd, prettyJson } from '../format';
import { colorVar, ExitBadge, UNKNOWN_EXIT_NOTE } from '../runs/exit-badge';
import { SignalBadges, VerificationMark } from '../runs/signal-badges';
import { LimitMeter } from './limit-meter';
import { ValueProblems } from './value-problems';
import styles from './run-header.module.css';

/** Goal, who ran it, why it stopped, whether that was checked, and limits against use. */
export function RunHeader({
  run,
  backHref,
  timeZone,
  sessionHref,
}: {
  run: RunDetail;
  backHref: string;
  timeZone: string;
  /** The page of the run's session, when it has one. */
  sessionHref?: string;
}) {
  const meta = EXIT_CATEGORY_META[run.exitCategory];
  // A run still going has not sent what its root span carries (goal, agent) yet: not "none".
  const live = run.endedAt === null;
  const missing = live ? 'not known yet' : '—';
  return (
    <header className={styles.header}>
      <nav aria-label="Breadcrumb" className={styles.crumbs}>
        <Link href={backHref}>← Runs</Link>
        <span className={styles.runId} title={run.id}>
          {run.id}
        </span>
      </nav>
      <h1 className={styles.goal}>
        {run.goal ??
          (live
            ? 'Running: its goal comes with the end of the run'
            : 'No goal was sent for this run')}
      </h1>
      <p className={styles.meta}>
        <span className="clamp" title={run.agent ?? undefined}>
          agent {run.agent ?? missing}
        </span>
        <span className="clamp" title={run.variant ?? undefined}>
          variant {run.variant ?? missing}
        </span>
        <span className="clamp" title={run.model ?? undefined}>
          model {run.model ?? missing}
        </span>
        <span>
          started{' '}
          <time dateTime={run.startedAt}>
            {formatDateTime(run.startedAt, timeZone)} {timeZone}
          </time>
        </span>
        <span>{formatCount(run.spanCount)} spans</span>
        {run.sessionId ? (
          <span className="clamp" title={run.sessionId}>
            session {sessionHref ? <Link href={sessionHref}>{run.sessionId}</Link> : run.sessionId}
          </span>
        ) : null}
        {run.tags.length > 0 ? <span>tags {run.tags.join(', ')}</span> : null}
      </p>
      {run.flags.fabricatedSuccess ? (
        <p className={`notice notice-danger ${styles.alert}`} role="alert">
          <strong>Fabricated success.</strong> The run claimed “{meta.label}”, but{' '}
          {run.verificationSource === 'human'
            ? 'a person who checked it'
            : run.verificationSource === 'review'
              ? 'a review outside the agent'
              : 'the environment’s own check at the end'}{' '}
          contradicted it. Treat the outcome as failed.
        </p>
      ) : null}
      {run.unpricedModels.length > 0 ? (
        <p className={`notice ${styles.alert}`} role="note">
          Spend is incomplete: no price for {run.unpricedModels.join(', ')}. Add the model to the
          price table to count its tokens.
        </p>
      ) : null}
      <ValueProblems problems={run.valueProblems} />
      <div className={styles.grid}>
        <section className={styles.card} style={colorVar(run.exitCategory)} aria-label="Exit">
          <h2 className={styles.cardTitle}>Why it stopped</h2>
          <p className={styles.exit}>
            <ExitBadge category={run.exitCategory} reason={run.exitReason} kind={run.exitKind} />
            {run.exitReason !== null || !live ? (
              <code title="Raw reason, as sent">{run.exitReason ?? 'no reason sent'}</code>
            ) : null}
          </p>
          <p className="muted">
            {run.exitCategory === 'unknown'
              ? UNKNOWN_EXIT_NOTE
              : run.flags.fabricatedSuccess
                ? run.verificationSource === 'human'
                  ? 'Claimed by the run; a person’s check contradicted it.'
                  : 'Claimed by the run; the environment’s check contradicted it.'
                : meta.description}
          </p>
          {run.exitDetail && run.exitDetail !== '{}' ? (
            <pre className={styles.detail}>{prettyJson(run.exitDetail)}</pre>
          ) : null}
          {run.escalation ? (
            <p>
              Handed over: <q>{run.escalation}</q>
            </p>
          ) : null}
        </section>
        <section className={styles.card} aria-label="Verification and signals">
          <h2 className={styles.cardTitle}>Checked?</h2>
          <p>
            <VerificationMark run={run} />
            {run.verification === 'verified' ? ` · ${run.verifiedUnits} unit(s)` : ''}
          </p>
          <SignalBadges flags={run.flags} />
          {run.wastedUsd > 0 ? (
            <p>
              <strong className={styles.wasted}>{formatUsd(run.wastedUsd)}</strong> spent after the
              first loop signal (step {run.firstSignalStep ?? '—'})
            </p>
          ) : null}
        </section>
        <section className={styles.card} aria-label="Limits against use">
          <h2 className={styles.cardTitle}>Limits</h2>
          <LimitMeter
            label="Steps"
            used={run.stepCount}
            limit={run.limits.maxSteps}
            format={formatCount}
          />
          <LimitMeter
            label="Spend"
            used={run.costUsd}
            limit={run.limits.maxUsd}
            format={formatUsd}
          />
          <LimitMeter
            label="Time"
            used={run.durationMs ?? run.elapsedMs}
            limit={run.limits.wallClockMs}
            format={(v) => formatDuration(v)}
          />
        </section>
        <section className={styles.card} aria-label="Totals">
          <h2 className={styles.cardTitle}>Totals</h2>
          <dl className={styles.totals}>
            <dt>Spend</dt>
            <dd>
              {formatUsd(run.costUsd)}
              {run.unpricedModels.length > 0 ? ' + unpriced tokens' : ''}
            </dd>
            <dt>Tokens</dt>
            <dd>
              {formatCount(run.inputTokens)} in · {formatCount(run.outputTokens)} out
              {run.cacheReadTokens > 0 ? ` · ${formatCount(run.cacheReadTokens)} cached` : ''}
            </dd>
            <dt>Duration</dt>
            <dd>{run.durationMs === null ? 'running' : formatDuration(run.durationMs)}</dd>
          </dl>
        </section>
      </div>
    </header>
  );
}

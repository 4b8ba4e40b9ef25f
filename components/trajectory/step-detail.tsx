import type { ReactNode } from 'react';
import { formatCount, formatDuration, formatUsd, prettyJson } from '../format';
import { AttributeTable } from './attribute-table';
import { HashChip } from './hash-chip';
import { StepSignals } from './step-signals';
import type { LaneStep, StepDetailData, StepDetailState } from './types';
import styles from './step-detail.module.css';

const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const STATUS = ['unset', 'ok', 'error'];

/** The selected step: what the list shows, then arguments, result, field verdicts and the raw span. */
export function StepDetail({
  step,
  detail,
  stepCount,
}: {
  step: LaneStep | null;
  detail: StepDetailState;
  stepCount: number;
}) {
  if (!step) {
    return (
      <aside className={styles.detail} aria-label="Step detail">
        <p className="muted">
          Select a step: click a row or a lane, or press <kbd>j</kbd> / <kbd>k</kbd> (or the arrow
          keys in the list).
        </p>
      </aside>
    );
  }
  const data = detail.status === 'ready' ? detail.data : null;
  return (
    // Focusable, so a keyboard alone reaches it with Tab and scrolls it with the arrow keys.
    <aside className={styles.detail} aria-label={`Step ${step.index} detail`} tabIndex={0}>
      <header className={styles.header}>
        <h2>
          Step {step.index}
          <span className={styles.action}>{step.action ?? 'no action'}</span>
        </h2>
        <span className="muted">
          {step.ordinal} of {formatCount(stepCount)}
        </span>
      </header>
      <dl className={styles.facts}>
        <dt>Action hash</dt>
        <dd className={styles.hashRow}>
          <HashChip hashKey={step.actionKey} /> <code>{step.actionHash ?? '—'}</code>
        </dd>
        <dt>State</dt>
        <dd className={styles.hashRow}>
          <HashChip hashKey={step.stateKey} /> <code>{step.stateHash ?? '—'}</code>
        </dd>
        <dt>Result hash</dt>
        <dd>
          <code>{data ? (data.resultHash?.slice(0, 8) ?? '—') : '…'}</code>
        </dd>
        <dt>Progress</dt>
        <dd>{step.progress ?? '—'}</dd>
        <dt>Verdict</dt>
        <dd>{step.verdict ? `${step.verdict} (${step.verdictSource ?? 'self'})` : '—'}</dd>
        <dt>Error class</dt>
        <dd>{step.errorClass ?? '—'}</dd>
        <dt>Spend</dt>
        <dd>
          {formatUsd(step.costUsd)} · {formatCount(step.inputTokens)} in /{' '}
          {formatCount(step.outputTokens)} out tokens
          {data?.contextTokens != null ? ` · context ${formatCount(data.contextTokens)}` : ''}
        </dd>
        <dt>Duration</dt>
        <dd>{formatDuration(step.durationMs)}</dd>
        <dt>Signals</dt>
        <dd>{step.signals.length > 0 ? <StepSignals step={step} /> : '—'}</dd>
      </dl>
      {detail.status === 'error' ? (
        <p className="notice notice-danger" role="alert">
          Could not load this step&apos;s span: {detail.message}
        </p>
      ) : null}
      <Section title="Arguments" loading={!data}>
        {data ? <Text value={data.actionArgs} json /> : null}
      </Section>
      <Section title="Result" loading={!data}>
        {data ? <Text value={data.result} json /> : null}
      </Section>
      {data?.verdictFields ? (
        <Section title="Verification by field" loading={false}>
          <ul className={styles.fields}>
            {data.verdictFields.map(([field, ok]) => (
              <li key={field} className={ok ? styles.pass : styles.fail}>
                {ok ? '✓' : '✗'} <code>{field}</code>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <Section title="Span" loading={!data}>
        {data ? <SpanFacts data={data} /> : null}
      </Section>
    </aside>
  );
}

function Section({
  title,
  loading,
  children,
}: {
  title: string;
  loading: boolean;
  children: ReactNode;
}) {
  return (
    <section className={styles.section}>
      <h3>{title}</h3>
      {loading ? (
        <div className={`skeleton ${styles.placeholder}`} aria-label="Loading" />
      ) : (
        children
      )}
    </section>
  );
}

function Text({ value, json }: { value: string | null; json?: boolean }) {
  if (value === null) return <p className="muted">none sent</p>;
  return <pre className={styles.pre}>{json ? prettyJson(value) : value}</pre>;
}

function SpanFacts({ data }: { data: StepDetailData }) {
  const span = data.span;
  if (!span) return <p className="muted">The span is no longer stored.</p>;
  return (
    <>
      <dl className={styles.facts}>
        <dt>Name</dt>
        <dd>{span.name}</dd>
        <dt>Kind · status</dt>
        <dd>
          {SPAN_KINDS[span.kind] ?? span.kind} · {STATUS[span.statusCode] ?? span.statusCode}
          {span.statusMessage ? `: ${span.statusMessage}` : ''}
        </dd>
        <dt>Scope</dt>
        <dd>{span.scopeName || '—'}</dd>
        <dt>Trace · span</dt>
        <dd>
          <code>{data.traceId}</code> · <code>{data.spanId}</code>
        </dd>
      </dl>
      <h4 className={styles.sub}>Attributes ({span.attributes.length})</h4>
      <AttributeTable pairs={span.attributes} />
      {span.events.length > 0 ? (
        <>
          <h4 className={styles.sub}>Events ({span.events.length})</h4>
          {span.events.map((e, k) => (
            <div key={k} className={styles.event}>
              <code>{e.name}</code>
              <AttributeTable pairs={e.attributes} />
            </div>
          ))}
        </>
      ) : null}
      <details className={styles.resource}>
        <summary>Resource ({span.resource.length})</summary>
        <AttributeTable pairs={span.resource} />
      </details>
    </>
  );
}

'use client';

import { useState } from 'react';
import type { ReactNode } from 'react';
import type { ChatMessage, ModelMessages } from '@/trajectory/span-messages';
import { SPAN_TREE_LIMIT, SPAN_TREE_MAX } from '@/lib/api-types';
import type { AttributePairs, SpanTree, SpanTreeSpan } from '@/lib/api-types';
import { formatCount, formatDuration, formatUsd } from '../format';
import { FoldedText } from './folded-text';
import styles from './span-tree.module.css';

export type SpanTreeState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; tree: SpanTree; loadingMore: boolean }
  | { status: 'error'; message: string };

const ROLE_LABELS: Record<string, string> = {
  llm: 'model call',
  tool: 'tool',
  step: 'step',
  cycle: 'loop cycle',
  agent: 'agent',
  chain: 'chain',
};
const STATUS = ['unset', 'ok', 'error'];
const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
/** Indentation stops here, so a deep tree still fits a phone's width. */
const MAX_INDENT = 8;

/** A span tree as rows on a small waterfall; a row opens the span's messages and raw data. */
export function SpanTreeView({
  state,
  label,
  openModelCalls,
  onShowMore,
}: {
  state: SpanTreeState;
  label: string;
  /** Open the model calls (else any span with messages) from the start: a step's few. */
  openModelCalls: boolean;
  /** Ask for the tree with `limit` spans: offered while a tree is capped below SPAN_TREE_MAX. */
  onShowMore: (limit: number) => void;
}) {
  if (state.status === 'idle') return null;
  if (state.status === 'loading') {
    return (
      <section className={styles.panel} aria-label={label} aria-busy="true">
        <div className={`skeleton ${styles.placeholder}`} aria-label="Loading" />
      </section>
    );
  }
  if (state.status === 'error') {
    return (
      <section className={styles.panel} aria-label={label}>
        <p className="notice notice-danger" role="alert">
          Could not load the spans: {state.message}
        </p>
      </section>
    );
  }
  return (
    <LoadedTree
      tree={state.tree}
      label={label}
      openModelCalls={openModelCalls}
      more={(place) => (
        <MoreSpans
          tree={state.tree}
          loading={state.loadingMore}
          onShowMore={onShowMore}
          place={place}
        />
      )}
    />
  );
}

function LoadedTree({
  tree,
  label,
  openModelCalls,
  more,
}: {
  tree: SpanTree;
  label: string;
  openModelCalls: boolean;
  /** What the tree leaves out and the way to more: above the rows, and a button below them. */
  more: (place: 'above' | 'below') => ReactNode;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => {
    if (!openModelCalls) return new Set();
    const talking = tree.spans.filter((s) => s.messages && hasMessages(s.messages));
    const calls = talking.filter((s) => s.role === 'llm');
    return new Set((calls.length > 0 ? calls : talking).map(spanKey));
  });
  const toggle = (key: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const start = Math.min(...tree.spans.map((s) => s.startMs));
  const end = Math.max(...tree.spans.map((s) => s.endMs ?? s.startMs));
  const range = Math.max(end - start, 1);
  return (
    <section className={styles.panel} aria-label={label}>
      <header className={styles.head}>
        <h3>{label}</h3>
        <span className="muted">
          {formatCount(tree.spans.length)} span{tree.spans.length === 1 ? '' : 's'} ·{' '}
          {formatDuration(end - start)}
        </span>
      </header>
      {more('above')}
      <ol className={styles.tree}>
        {tree.spans.map((span) => {
          const key = spanKey(span);
          const expanded = open.has(key);
          return (
            <li key={key} className={styles.item}>
              <button
                type="button"
                className={styles.row}
                aria-expanded={expanded}
                onClick={() => toggle(key)}
              >
                <span
                  className={styles.name}
                  style={{ paddingLeft: `${Math.min(span.depth, MAX_INDENT) * 14}px` }}
                >
                  <span aria-hidden="true" className={styles.caret}>
                    {expanded ? '▾' : '▸'}
                  </span>
                  {span.name}
                </span>
                <span className={styles.meta}>
                  <span className={styles.role}>{ROLE_LABELS[span.role ?? ''] ?? 'span'}</span>
                  {span.statusCode === 2 ? <span className={styles.error}>error</span> : null}
                  <span>
                    {formatDuration(span.endMs === null ? null : span.endMs - span.startMs)}
                  </span>
                  {span.inputTokens + span.outputTokens > 0 ? (
                    <span>
                      {formatCount(span.inputTokens)} in / {formatCount(span.outputTokens)} out
                    </span>
                  ) : null}
                  {span.costUsd !== null && span.costUsd > 0 ? (
                    <span>{formatUsd(span.costUsd)}</span>
                  ) : null}
                </span>
                <span className={styles.track} aria-hidden="true">
                  <span
                    className={span.statusCode === 2 ? styles.barError : styles.bar}
                    style={{
                      left: `${((span.startMs - start) / range) * 100}%`,
                      width: `max(2px, ${(((span.endMs ?? span.startMs) - span.startMs) / range) * 100}%)`,
                    }}
                  />
                </span>
              </button>
              {expanded ? <SpanBody span={span} /> : null}
            </li>
          );
        })}
      </ol>
      {more('below')}
    </section>
  );
}

function SpanBody({ span }: { span: SpanTreeSpan }) {
  return (
    <div className={styles.body}>
      <dl className={styles.facts}>
        <dt>Kind · status</dt>
        <dd>
          {KINDS[span.kind] ?? span.kind} · {STATUS[span.statusCode] ?? span.statusCode}
          {span.statusMessage ? `: ${span.statusMessage}` : ''}
        </dd>
        {span.model ? (
          <>
            <dt>Model</dt>
            <dd>{span.model}</dd>
          </>
        ) : null}
        {span.messages?.finishReason ? (
          <>
            <dt>Finish reason</dt>
            <dd>{span.messages.finishReason}</dd>
          </>
        ) : null}
        <dt>Span</dt>
        <dd>
          <code>{span.spanId}</code>
        </dd>
      </dl>
      {span.messages && hasMessages(span.messages) ? <Messages messages={span.messages} /> : null}
      <RawSpan span={span} />
    </div>
  );
}

function Messages({ messages }: { messages: ModelMessages }) {
  return (
    <div className={styles.messages}>
      <MessageList title="Input" list={messages.input} />
      <MessageList title="Output" list={messages.output} />
      <p className={`muted ${styles.convention}`}>read from {messages.conventions.join(', ')}</p>
    </div>
  );
}

function MessageList({ title, list }: { title: string; list: ChatMessage[] }) {
  return (
    <section aria-label={`${title} messages`} className={styles.side}>
      <h4>
        {title} ({list.length})
      </h4>
      {list.length === 0 ? <p className="muted">none recorded</p> : null}
      {list.map((m, k) => (
        <article key={k} className={styles.message} aria-label={`${title} ${k + 1}: ${m.role}`}>
          <div className={styles.messageHead}>
            <span className={styles.role}>{m.role}</span>
            {m.toolCallId ? <span className="muted">result of {m.toolCallId}</span> : null}
          </div>
          {m.content !== '' ? <FoldedText text={m.content} /> : null}
          {m.toolCalls.map((c, j) => (
            <div key={j} className={styles.toolCall}>
              <span>
                calls <code>{c.name}</code>
                {c.id ? <span className="muted"> · {c.id}</span> : null}
              </span>
              {c.args !== null ? <FoldedText text={c.args} /> : null}
            </div>
          ))}
          {m.content === '' && m.toolCalls.length === 0 ? <p className="muted">empty</p> : null}
        </article>
      ))}
    </section>
  );
}

function RawSpan({ span }: { span: SpanTreeSpan }) {
  return (
    <details className={styles.raw}>
      <summary>
        Raw: {span.attributes.length} attributes, {span.events.length} events
      </summary>
      <CopyJson span={span} />
      <RawPairs pairs={span.attributes} />
      {span.events.map((e, k) => (
        <div key={k} className={styles.event}>
          <code>{e.name}</code>
          <RawPairs pairs={e.attributes} />
        </div>
      ))}
    </details>
  );
}

function RawPairs({ pairs }: { pairs: AttributePairs }) {
  if (pairs.length === 0) return <p className="muted">none</p>;
  return (
    <dl className={styles.pairs}>
      {pairs.map(([key, value], k) => (
        <div key={`${k}:${key}`} className={styles.pair}>
          <dt>{key}</dt>
          <dd>
            <FoldedText
              text={typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))}
              className={styles.value}
            />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function CopyJson({ span }: { span: SpanTreeSpan }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    const json = JSON.stringify(rawJson(span), null, 2);
    try {
      await navigator.clipboard.writeText(json);
      setDone('copied');
    } catch {
      setDone('failed');
    }
  };
  return (
    <p className={styles.copy}>
      <button type="button" className="button" onClick={() => void copy()}>
        Copy JSON
      </button>
      <span role="status" className="muted">
        {done === 'copied' ? 'Copied.' : done === 'failed' ? 'The browser refused the copy.' : ''}
      </span>
    </p>
  );
}

/** The span's raw data as JSON: attribute keys such as `__proto__` stay own properties. */
export function rawJson(span: SpanTreeSpan): unknown {
  const record = (pairs: AttributePairs) => Object.fromEntries(pairs);
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    name: span.name,
    startMs: span.startMs,
    endMs: span.endMs,
    statusCode: span.statusCode,
    statusMessage: span.statusMessage,
    attributes: record(span.attributes),
    events: span.events.map((e) => ({
      name: e.name,
      timeMs: e.timeMs,
      attributes: record(e.attributes),
    })),
  };
}

function hasMessages(messages: ModelMessages): boolean {
  return messages.input.length + messages.output.length > 0;
}

function spanKey(span: SpanTreeSpan): string {
  return `${span.traceId}:${span.spanId}`;
}

/** What a capped tree leaves out, and a way to see the next SPAN_TREE_LIMIT, up to SPAN_TREE_MAX. */
function MoreSpans({
  tree,
  loading,
  onShowMore,
  place,
}: {
  tree: SpanTree;
  loading: boolean;
  onShowMore: (limit: number) => void;
  place: 'above' | 'below';
}) {
  if (!tree.capped) return null;
  const next = Math.min(tree.limit + SPAN_TREE_LIMIT, SPAN_TREE_MAX, tree.total);
  const button =
    tree.limit < SPAN_TREE_MAX ? (
      <button
        type="button"
        className="button"
        disabled={loading}
        aria-busy={loading}
        onClick={() => onShowMore(next)}
      >
        {loading ? 'Loading…' : `Show ${formatCount(next - tree.spans.length)} more`}
      </button>
    ) : null;
  // Below the rows only the button: whoever scrolled through them wants the next ones there.
  if (place === 'below') return button && <div className={styles.more}>{button}</div>;
  return (
    <p className={`notice ${styles.more}`} role="status">
      <span>
        Showing the first {formatCount(tree.spans.length)} of {formatCount(tree.total)} spans,
        earliest first
        {tree.limit >= SPAN_TREE_MAX
          ? `: ${formatCount(SPAN_TREE_MAX)} is as many as this view shows.`
          : '.'}
      </span>
      {button}
    </p>
  );
}

import Link from 'next/link';
import { notFound } from 'next/navigation';
import { formatCount, formatDateTime, formatUsd } from '@/components/format';
import { ExitBadge } from '@/components/runs/exit-badge';
import styles from '@/components/compare/patterns.module.css';
import { ViewBar } from '@/components/view/view-bar';
import { loopPatterns } from '@/db/read/loop-patterns';
import { patternRuns } from '@/db/read/pattern-runs';
import { patternsParams } from '@/lib/report-params';
import { viewHref } from '@/lib/view-window';
import { listedLabels, PATTERN_KIND_LABEL, PATTERN_KINDS } from '@/trajectory/pattern-kinds';
import { reportContext } from '../reports/page-context';
import type { SearchParams } from '../reports/page-context';
import { reportView } from '../reports/report-view';

export const dynamic = 'force-dynamic';

/** Loops grouped across the window's runs, the costliest first; a pattern opens its runs. */
export default async function PatternsPage({ searchParams }: { searchParams: SearchParams }) {
  const context = await reportContext(searchParams, patternsParams);
  // A link Loopscope cannot answer is a 404 whose page (./not-found.tsx) names every problem.
  if (!context.ok) notFound();
  const { db, project, query, params, now } = context;
  const { window, view } = await reportView(query, now);
  const zone = window.timeZone;
  const [patterns, runs] = await Promise.all([
    loopPatterns(db, {
      projectId: project.id,
      window,
      agent: params.agent,
      kind: params.kind,
      limit: 100,
    }),
    params.signature
      ? patternRuns(db, { projectId: project.id, window, signature: params.signature, limit: 100 })
      : Promise.resolve(null),
  ]);
  const here = { ...view, agent: params.agent, kind: params.kind };
  const labels = listedLabels(patterns);
  const opened = params.signature ? patterns.find((p) => p.signature === params.signature) : null;
  return (
    <main id="main" className="page">
      <h1>Loop patterns</h1>
      <p className="muted">
        The same loop in different runs, grouped: a repeat by the repeated action, an A/B/A revisit
        by its cycle&apos;s actions (wherever the cycle was entered), a tool circuit by its tool, a
        stall by its agent and the actions of its window. Wasted spend is what the runs spent after
        their first loop signal without being verified; the costliest first.
      </p>
      <ViewBar path="/patterns" query={query} window={window} />
      <form action="/patterns" method="get" className={styles.filters} aria-label="Filters">
        {Object.entries(view).map(([key, value]) => (
          <input key={key} type="hidden" name={key} value={value} />
        ))}
        <label>
          Agent <input name="agent" defaultValue={params.agent ?? ''} placeholder="any" />
        </label>
        <label>
          Kind{' '}
          <select name="kind" defaultValue={params.kind ?? ''}>
            <option value="">any</option>
            {PATTERN_KINDS.map((k) => (
              <option key={k} value={k}>
                {PATTERN_KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      {patterns.length === 0 ? (
        <p className={styles.empty}>
          No loop in this window{params.agent || params.kind ? ' with these filters' : ''}.
        </p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label="Patterns">
            <thead>
              <tr>
                <th scope="col">Loop</th>
                <th scope="col">Kind</th>
                <th scope="col">Agent</th>
                <th scope="col" className={styles.num}>
                  Runs
                </th>
                <th scope="col" className={styles.num}>
                  Wasted
                </th>
                <th scope="col">Seen</th>
              </tr>
            </thead>
            <tbody>
              {patterns.map((p, k) => (
                <tr
                  key={`${p.signature} ${p.agent}`}
                  aria-current={p.signature === params.signature ? 'true' : undefined}
                >
                  <td className={styles.label}>
                    <Link href={viewHref('/patterns', here, { signature: p.signature })}>
                      {labels[k]}
                    </Link>
                    {/* On a phone the kind and agent columns give way to this line. */}
                    <span className={styles.meta}>
                      {PATTERN_KIND_LABEL[p.kind]} ·{' '}
                      <span className="one-line" title={p.agent ?? undefined}>
                        {p.agent ?? '—'}
                      </span>
                    </span>
                  </td>
                  <td>{PATTERN_KIND_LABEL[p.kind]}</td>
                  <td>
                    <span className="one-line" title={p.agent ?? undefined}>
                      {p.agent ?? '—'}
                    </span>
                  </td>
                  <td className={styles.num}>{formatCount(p.runs)}</td>
                  <td className={styles.num}>{formatUsd(p.wastedUsd)}</td>
                  <td className={styles.seen}>
                    {formatDateTime(p.firstSeen, zone)} – {formatDateTime(p.lastSeen, zone)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {runs ? (
        <section className={styles.runs} aria-label="Runs of the pattern">
          <h2>
            Runs with {opened ? <q>{opened.label}</q> : 'this pattern'}{' '}
            <Link className={styles.close} href={viewHref('/patterns', here)}>
              close
            </Link>
          </h2>
          {runs.length === 0 ? (
            <p className="muted">No run of this window has this pattern.</p>
          ) : (
            <ul className={styles.runList}>
              {runs.map((r) => (
                <li key={r.id}>
                  <Link href={viewHref(`/runs/${encodeURIComponent(r.id)}`, view)}>
                    {r.goal ?? r.id}
                  </Link>{' '}
                  {/* Runs of one pattern often share their goal: the id tells them apart. */}
                  {r.goal !== null ? <code className={styles.runId}>{r.id}</code> : null}{' '}
                  <ExitBadge category={r.exitCategory} reason={null} kind={null} />{' '}
                  <span className="muted">
                    {r.agent ?? '—'} · {formatDateTime(r.startedAt, zone)} · {formatUsd(r.costUsd)}{' '}
                    spent, {formatUsd(r.wastedUsd)} wasted
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </main>
  );
}

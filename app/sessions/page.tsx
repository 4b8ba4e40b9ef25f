import { exitSummary } from '@/components/sessions/exit-summary';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { formatCount, formatDateTime, formatUsd } from '@/components/format';
import styles from '@/components/sessions/sessions.module.css';
import { listSessions } from '@/db/read/sessions';
import { ViewBar } from '@/components/view/view-bar';
import { sessionsParams } from '@/lib/report-params';
import { viewHref } from '@/lib/view-window';
import { reportContext } from '../reports/page-context';
import type { SearchParams } from '../reports/page-context';
import { reportView } from '../reports/report-view';

export const dynamic = 'force-dynamic';

/** The window's sessions (runs sharing a session id), the one with the latest run first. */
export default async function SessionsPage({ searchParams }: { searchParams: SearchParams }) {
  const context = await reportContext(searchParams, sessionsParams);
  // A link Loopscope cannot answer is a 404 whose page (./not-found.tsx) names every problem.
  if (!context.ok) notFound();
  const { db, project, query: urlQuery, params: data, now } = context;
  const { window, view } = await reportView(urlQuery, now);
  const timeZone = window.timeZone;
  const page = await listSessions(db, {
    projectId: project.id,
    window,
    agent: data.agent,
    limit: 50,
    cursor: data.cursor,
  }).catch(() => null);
  if (!page) notFound();
  // Links keep the project and the window (a session's page, and the next page of this list
  // with its agent too).
  const withQuery = (path: string, extra: Record<string, string | undefined> = {}) =>
    viewHref(path, view, extra);
  return (
    <main id="main" className="page">
      <h1>Sessions</h1>
      <p className="muted">
        Runs that share a session id (<code>loop.session.id</code>, <code>session.id</code> or{' '}
        <code>gen_ai.conversation.id</code>), the most recently active first.
      </p>
      <ViewBar path="/sessions" query={urlQuery} window={window} />
      {page.sessions.length === 0 ? (
        <p role="status">No run in this window carries a session id.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label="Sessions">
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Agent</th>
                <th scope="col" className={styles.num}>
                  Runs
                </th>
                <th scope="col">Exits</th>
                <th scope="col" className={styles.num}>
                  Spend
                </th>
                <th scope="col" className={styles.num}>
                  Verified units
                </th>
                <th scope="col">Started ({timeZone})</th>
              </tr>
            </thead>
            <tbody>
              {page.sessions.map((s) => (
                <tr key={s.id}>
                  <td className={styles.goal}>
                    <Link
                      className="clamp"
                      title={s.id}
                      href={withQuery(`/sessions/${encodeURIComponent(s.id)}`)}
                    >
                      {s.id}
                    </Link>
                  </td>
                  <td className={styles.goal}>
                    <span className="clamp" title={s.agent ?? undefined}>
                      {s.agent ?? '—'}
                    </span>
                  </td>
                  <td className={styles.num}>{formatCount(s.runs)}</td>
                  <td>{exitSummary(s.exitCategories)}</td>
                  <td className={styles.num}>{formatUsd(s.costUsd)}</td>
                  <td className={styles.num}>{formatCount(s.verifiedUnits)}</td>
                  <td>
                    <time dateTime={s.startedAt}>{formatDateTime(s.startedAt, timeZone)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.nextCursor ? (
        <p>
          <Link href={withQuery('/sessions', { agent: data.agent, cursor: page.nextCursor })}>
            Next page →
          </Link>
        </p>
      ) : null}
    </main>
  );
}

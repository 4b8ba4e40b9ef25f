import { exitSummary } from '@/components/sessions/exit-summary';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { formatCount, formatDateTime, formatUsd } from '@/components/format';
import styles from '@/components/sessions/sessions.module.css';
import { listSessions } from '@/db/read/sessions';
import { keyName, projectName, resolveWindow, safeText } from '@/lib/filters';
import { dashboardRead, schemaParse } from '../read-door';

export const dynamic = 'force-dynamic';

const params = z.object({
  project: projectName.optional(),
  agent: keyName().optional(),
  cursor: safeText().max(500).optional(),
});

/** The window's sessions (runs sharing a session id), the one with the latest run first. */
export default async function SessionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const read = await dashboardRead<z.output<typeof params>>(searchParams, {
    parse: schemaParse(params),
    project: (q) => q.project,
    settle: 'project',
  });
  if (!read.ok) notFound();
  const { db, project, data, timeZone, now } = read;
  const page = await listSessions(db, {
    projectId: project.id,
    window: resolveWindow({}, now),
    agent: data.agent,
    limit: 50,
    cursor: data.cursor,
  }).catch(() => null);
  if (!page) notFound();
  const query = data.project ? `project=${encodeURIComponent(data.project)}` : '';
  const withQuery = (path: string, extra = '') => {
    const q = [query, extra].filter(Boolean).join('&');
    return q ? `${path}?${q}` : path;
  };
  return (
    <main id="main" className="page">
      <h1>Sessions</h1>
      <p className="muted">
        Runs that share a session id (<code>loop.session.id</code>, <code>session.id</code> or{' '}
        <code>gen_ai.conversation.id</code>), last 30 days, the most recently active first.
      </p>
      {page.sessions.length === 0 ? (
        <p role="status">No run in the last 30 days carries a session id.</p>
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
          <Link href={withQuery('/sessions', `cursor=${encodeURIComponent(page.nextCursor)}`)}>
            Next page →
          </Link>
        </p>
      ) : null}
    </main>
  );
}

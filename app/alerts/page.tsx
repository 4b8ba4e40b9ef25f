import { RefreshWhile } from '@/components/view/refresh-while';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { formatDateTime } from '@/components/format';
import { listAlertEvents } from '@/db/read/alert-events';
import { listRules } from '@/db/read/alert-rules';
import { describeCondition } from '@/lib/alerts/describe-rule';
import { projectName, resolveWindow } from '@/lib/filters';
import { dashboardRead, schemaParse } from '../read-door';
import type { SearchParams } from '../reports/page-context';
import { deleteRuleAction, sendTestEventAction, setRuleEnabledAction } from './actions';
import { RuleForm } from './rule-form';
import styles from './alerts.module.css';

export const dynamic = 'force-dynamic';

const params = z.object({
  project: projectName.optional(),
  edit: z.uuid({ error: 'not a rule id (a UUID)' }).optional(),
});

export default async function AlertsPage({ searchParams }: { searchParams: SearchParams }) {
  const read = await dashboardRead<z.output<typeof params>>(searchParams, {
    parse: schemaParse(params),
    project: (q) => q.project,
    settle: 'project',
  });
  if (!read.ok) notFound();
  const { db, project, data, timeZone, now } = read;
  const [rules, events] = await Promise.all([
    listRules(db, project.id),
    listAlertEvents(db, { projectId: project.id, window: resolveWindow({}, now) }),
  ]);
  const editing = data.edit ? (rules.find((r) => r.id === data.edit) ?? null) : null;
  const names = new Map(rules.map((r) => [r.id, r.name]));
  const hidden = <input type="hidden" name="project" value={project.name} />;
  const q = `project=${encodeURIComponent(project.name)}`;

  return (
    <main id="main" className={`page ${styles.alerts}`}>
      <header>
        <h1>Alerts</h1>
        <p className="muted">
          Rules of project {project.name}. A run rule is judged as each run is derived and fires at
          most once per run; a window rule is judged every few minutes. A fired rule posts to its
          webhook until the webhook answers 2xx, and every attempt shows in the delivery log.
        </p>
      </header>

      <section className={`panel ${styles.section}`} aria-labelledby="rules-title">
        <h2 id="rules-title">Rules</h2>
        {rules.length === 0 ? (
          <p className="muted">No rule yet: create one below.</p>
        ) : (
          <ul className={styles.rules}>
            {rules.map((rule) => (
              <li key={rule.id} className={styles.rule} data-rule={rule.name}>
                <div className={styles.ruleText}>
                  <strong>{rule.name}</strong>
                  <span className={rule.enabled ? styles.on : styles.off}>
                    {rule.enabled ? 'enabled' : 'disabled'}
                  </span>
                  <p className="muted">
                    When {describeCondition(rule.when)}
                    {rule.agent ? ` (agent ${rule.agent})` : ''}: {rule.webhook.format} to{' '}
                    <code>{new URL(rule.webhook.url).host}</code>
                    {rule.webhook.hasSecret ? ', signed' : ''}
                  </p>
                </div>
                <div className={styles.ruleActions}>
                  <Link className="button" href={`/alerts?${q}&edit=${rule.id}`}>
                    Edit
                  </Link>
                  <form action={setRuleEnabledAction}>
                    {hidden}
                    <input type="hidden" name="ruleId" value={rule.id} />
                    <input type="hidden" name="enabled" value={String(!rule.enabled)} />
                    <button className="button" type="submit">
                      {rule.enabled ? 'Disable' : 'Enable'}
                    </button>
                  </form>
                  <form action={sendTestEventAction}>
                    {hidden}
                    <input type="hidden" name="ruleId" value={rule.id} />
                    <button className="button" type="submit">
                      Send a test event
                    </button>
                  </form>
                  <form action={deleteRuleAction}>
                    {hidden}
                    <input type="hidden" name="ruleId" value={rule.id} />
                    <button className="button" type="submit">
                      Delete
                    </button>
                  </form>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className={`panel ${styles.section}`} aria-labelledby="form-title">
        <h2 id="form-title">{editing ? `Edit ${editing.name}` : 'New rule'}</h2>
        <RuleForm key={editing?.id ?? 'new'} project={project.name} rule={editing} />
      </section>

      <section className={`panel ${styles.section}`} aria-labelledby="log-title">
        <h2 id="log-title">Delivery log</h2>
        {/* Deliveries in flight: the log follows them without a reload. */}
        <RefreshWhile
          waiting={events.some((e) => e.status !== 'delivered' && e.status !== 'failed')}
        />
        <p className="muted">Events fired in the last 30 days, newest first, with every attempt.</p>
        {events.length === 0 ? (
          <p className="muted">Nothing has fired yet.</p>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Fired</th>
                  <th scope="col">Rule</th>
                  <th scope="col">What</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                </tr>
              </thead>
              <tbody>
                {events.map((event) => (
                  <tr key={event.id} data-event={event.id}>
                    <td className={styles.nowrap} data-label="Fired">
                      {formatDateTime(event.firedAt, timeZone)} {timeZone}
                    </td>
                    <td data-label="Rule">{names.get(event.ruleId) ?? event.ruleId}</td>
                    <td className={styles.summary} data-label="What">
                      {event.runId ? (
                        <Link href={`/runs/${encodeURIComponent(event.runId)}?${q}`}>
                          {event.summary}
                        </Link>
                      ) : (
                        event.summary
                      )}
                    </td>
                    <td data-label="Status">
                      <span className={styles[event.status] ?? ''}>{event.status}</span>
                    </td>
                    <td data-label="Attempts">
                      <ol className={styles.attempts}>
                        {event.deliveries.map((d) => (
                          <li key={d.attempt}>
                            {formatDateTime(d.at, timeZone)}:{' '}
                            {d.error === null ? `delivered (${d.httpStatus})` : d.error}
                          </li>
                        ))}
                      </ol>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </main>
  );
}

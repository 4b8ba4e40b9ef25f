import type { RunDetail } from '@/lib/api-types';
import type { HumanVerdict } from '@/trajectory/verification';
import { formatDateTime } from '../format';
import styles from './verdict-form.module.css';

export interface GivenVerdictView {
  verdict: HumanVerdict;
  units: number;
  note: string | null;
  givenAt: string;
}

/**
 * "I checked": a person's verdict on the outcome, with a note. A plain form (a server action),
 * so it works before scripts load; the run is derived again with it before the page returns.
 */
export function VerdictForm({
  run,
  given,
  project,
  action,
  timeZone,
}: {
  run: Pick<RunDetail, 'id'>;
  given: GivenVerdictView | null;
  project: string | undefined;
  action: (formData: FormData) => Promise<void>;
  timeZone: string;
}) {
  return (
    <section className={styles.box} aria-label="Your verdict">
      {given ? (
        <div className={styles.given}>
          <p>
            <strong>You checked:</strong>{' '}
            {given.verdict === 'verified'
              ? `verified, ${given.units} unit(s)`
              : 'contradicted (the outcome is not what it claims)'}{' '}
            <span className="muted">
              on{' '}
              <time dateTime={given.givenAt}>
                {formatDateTime(given.givenAt, timeZone)} {timeZone}
              </time>
            </span>
          </p>
          {given.note ? <blockquote className={styles.note}>{given.note}</blockquote> : null}
          <form action={action}>
            <Hidden run={run} project={project} intent="take_back" />
            <button type="submit" className="button">
              Take back
            </button>
          </form>
        </div>
      ) : null}
      <form action={action} className={styles.form}>
        <Hidden run={run} project={project} intent="give" />
        <fieldset className={styles.choices}>
          <legend>{given ? 'Change your verdict' : 'I checked the outcome myself'}</legend>
          <label>
            <input
              type="radio"
              name="verdict"
              value="verified"
              required
              defaultChecked={given?.verdict === 'verified'}
            />{' '}
            verified
          </label>
          <label className={styles.units}>
            units{' '}
            <input
              type="number"
              name="units"
              min={0}
              step="any"
              defaultValue={given?.verdict === 'verified' ? given.units : undefined}
              placeholder="1"
              inputMode="decimal"
            />
          </label>
          <label>
            <input
              type="radio"
              name="verdict"
              value="contradicted"
              required
              defaultChecked={given?.verdict === 'contradicted'}
            />{' '}
            contradicted
          </label>
        </fieldset>
        <label className={styles.noteField}>
          Note <span className="muted">(what you checked, kept with the verdict)</span>
          <textarea name="note" maxLength={2000} rows={2} defaultValue={given?.note ?? ''} />
        </label>
        <button type="submit" className={`button ${styles.primary}`}>
          Record verdict
        </button>
      </form>
    </section>
  );
}

function Hidden({
  run,
  project,
  intent,
}: {
  run: Pick<RunDetail, 'id'>;
  project: string | undefined;
  intent: 'give' | 'take_back';
}) {
  return (
    <>
      <input type="hidden" name="runId" value={run.id} />
      {project ? <input type="hidden" name="project" value={project} /> : null}
      <input type="hidden" name="intent" value={intent} />
    </>
  );
}

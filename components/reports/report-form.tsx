import Form from 'next/form';
import type { ReactNode } from 'react';
import styles from './reports.module.css';

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A report's window and choices as a GET form, so every view is a URL. Dates are whole UTC days:
 * `to` names the last day included.
 */
export function ReportForm({
  action,
  from,
  to,
  keep,
  submitLabel,
  children,
}: {
  action: string;
  from: Date;
  to: Date;
  /** Parameters the form carries over unchanged (project, grouping). */
  keep: Record<string, string | undefined>;
  submitLabel: string;
  children?: ReactNode;
}) {
  return (
    <Form action={action} className={styles.controls} aria-label="Report settings">
      {Object.entries(keep).map(([name, value]) =>
        value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
      )}
      {children}
      <label className={styles.field}>
        From
        <input type="date" name="from" defaultValue={day(from)} required />
      </label>
      <label className={styles.field}>
        To (inclusive)
        <input type="date" name="to" defaultValue={day(new Date(to.getTime() - 1))} required />
      </label>
      <button className="button" type="submit">
        {submitLabel}
      </button>
    </Form>
  );
}

/** A select of names with an "any" choice; the value is the URL parameter. */
export function NameSelect({
  label,
  name,
  value,
  options,
  anyLabel,
}: {
  label: string;
  name: string;
  value: string | undefined;
  options: readonly string[];
  /** When given, a first option that means "no filter". */
  anyLabel?: string;
}) {
  // A value from the URL that no run in the window has stays selectable, so it is visible.
  const all = value !== undefined && !options.includes(value) ? [value, ...options] : options;
  return (
    <label className={styles.field}>
      {label}
      <select name={name} defaultValue={value ?? ''}>
        {anyLabel !== undefined && <option value="">{anyLabel}</option>}
        {all.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

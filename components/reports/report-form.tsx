import Form from 'next/form';
import type { ReactNode } from 'react';
import styles from './reports.module.css';

/**
 * A report's choices as a GET form, so every view is a URL. The window and zone are the page's
 * (the view bar sets them); the form carries them over with the project.
 */
export function ReportForm({
  action,
  keep,
  submitLabel,
  children,
}: {
  action: string;
  /** Parameters the form carries over unchanged (project, window, zone, grouping). */
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
  anyValue = '',
}: {
  label: string;
  name: string;
  value: string | undefined;
  options: readonly string[];
  /** When given, a first option that means "no filter". */
  anyLabel?: string;
  /** The value of that option (empty, which the URL drops, unless the page needs to tell). */
  anyValue?: string;
}) {
  // A value from the URL that no run in the window has stays selectable, so it is visible.
  const all =
    value !== undefined && value !== anyValue && !options.includes(value)
      ? [value, ...options]
      : options;
  return (
    <label className={styles.field}>
      {label}
      <select key={value ?? anyValue} name={name} defaultValue={value ?? anyValue}>
        {anyLabel !== undefined && <option value={anyValue}>{anyLabel}</option>}
        {all.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

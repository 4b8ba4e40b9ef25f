'use client';

import Form from 'next/form';
import Link from 'next/link';
import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import styles from './view-bar.module.css';

export interface PresetLink {
  value: string;
  label: string;
  href: string;
}

/**
 * The time window: presets as links, and a custom range as a GET form that opens in the flow of
 * the page below the presets (never over the content, never clipped), so it is a URL too.
 */
export function WindowPicker({
  choice,
  presets,
  action,
  keep,
  days,
  timeZoneLabel,
}: {
  choice: string;
  presets: PresetLink[];
  /** The page the custom form submits to. */
  action: string;
  /** Parameters the custom form carries over (project, zone, filters, sort). */
  keep: Record<string, string>;
  /** The window's first and last day, in its zone. */
  days: { from: string; to: string };
  timeZoneLabel: string;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLInputElement>(null);
  const opened = useRef(false);
  useEffect(() => {
    if (open) first.current?.focus();
    else if (opened.current) toggle.current?.focus();
    opened.current = open;
  }, [open]);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
    }
  };
  return (
    <div className={styles.picker}>
      <div className={styles.segmented} role="group" aria-label="Time window">
        {presets.map((p) => (
          <Link
            key={p.value}
            className={styles.segment}
            href={p.href}
            aria-current={choice === p.value ? 'true' : undefined}
          >
            {p.label}
          </Link>
        ))}
        <button
          ref={toggle}
          type="button"
          className={styles.segment}
          aria-current={choice === 'custom' ? 'true' : undefined}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          Custom…
        </button>
      </div>
      <div id={panelId} className={styles.customPanel} hidden={!open} onKeyDown={onKeyDown}>
        <Form action={action} className={styles.customForm} aria-label="Custom time window">
          {Object.entries(keep).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="window" value="custom" />
          <label className={styles.field}>
            From
            <input ref={first} type="date" name="from" defaultValue={days.from} required />
          </label>
          <label className={styles.field}>
            To (inclusive)
            <input type="date" name="to" defaultValue={days.to} required />
          </label>
          <button className="button" type="submit">
            Show this range
          </button>
          <span className="muted">Days in {timeZoneLabel}</span>
        </Form>
      </div>
    </div>
  );
}

'use client';

import Link from 'next/link';
import { useEffect, useRef } from 'react';
import styles from './review-list.module.css';

export interface ReviewItem {
  id: string;
  href: string;
  goal: string;
  agent: string | null;
  exit: string;
  cost: string;
  started: string;
}

/**
 * Runs to check, one link each: j / k move between them from the moment the page opens (the arrow
 * keys too, once the list has focus), Enter opens one. Plain links underneath, so it works
 * without a keyboard and before scripts load.
 */
export function ReviewList({ items }: { items: ReviewItem[] }) {
  const list = useRef<HTMLOListElement>(null);
  // The page's keys from the moment it opens: a reviewer presses j before anything has focus.
  useEffect(() => {
    const move = (event: globalThis.KeyboardEvent) => {
      const delta =
        event.key === 'j' || event.key === 'ArrowDown'
          ? 1
          : event.key === 'k' || event.key === 'ArrowUp'
            ? -1
            : 0;
      if (delta === 0 || event.metaKey || event.ctrlKey || event.altKey) return;
      if (typing(event.target)) return;
      const links = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])];
      if (links.length === 0) return;
      const at = links.indexOf(document.activeElement as HTMLAnchorElement);
      // Arrows scroll the page until the list has focus; j and k always move in it.
      if (at === -1 && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) return;
      const next = at === -1 ? 0 : Math.min(links.length - 1, Math.max(0, at + delta));
      links[next]?.focus();
      event.preventDefault();
    };
    window.addEventListener('keydown', move);
    return () => window.removeEventListener('keydown', move);
  }, []);
  return (
    <ol ref={list} className={styles.list} aria-label="Runs to check" aria-keyshortcuts="j k">
      {items.map((item) => (
        <li key={item.id}>
          <Link href={item.href} className={styles.item} prefetch={false}>
            <span className={styles.goal}>{item.goal}</span>
            <span className={styles.meta}>
              <span>{item.agent ?? '—'}</span>
              <span>{item.exit}</span>
              <span className={styles.cost}>{item.cost}</span>
              <span>{item.started}</span>
            </span>
          </Link>
        </li>
      ))}
    </ol>
  );
}

/** Whether a key pressed on `target` is typing (a field, a select, editable text), not a command. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

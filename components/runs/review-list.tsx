'use client';

import Link from 'next/link';
import { useRef } from 'react';
import type { KeyboardEvent } from 'react';
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
 * Runs to check, one link each: j / k (or the arrow keys) move between them, Enter opens one.
 * Plain links underneath, so it works without a keyboard and before scripts load.
 */
export function ReviewList({ items }: { items: ReviewItem[] }) {
  const list = useRef<HTMLOListElement>(null);
  const move = (event: KeyboardEvent<HTMLOListElement>) => {
    const delta =
      event.key === 'j' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'k' || event.key === 'ArrowUp'
          ? -1
          : 0;
    if (delta === 0 || event.metaKey || event.ctrlKey || event.altKey) return;
    const links = [...(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? [])];
    if (links.length === 0) return;
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    const next = at === -1 ? 0 : Math.min(links.length - 1, Math.max(0, at + delta));
    links[next]?.focus();
    event.preventDefault();
  };
  return (
    <ol
      ref={list}
      className={styles.list}
      aria-label="Runs to check"
      aria-keyshortcuts="j k"
      onKeyDown={move}
    >
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

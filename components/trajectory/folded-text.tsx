'use client';

import { useState } from 'react';
import styles from './span-tree.module.css';

const FOLD_CHARS = 600;
const FOLD_LINES = 12;

/** Untrusted text as text, its head only when long, with "show all" for the rest. */
export function FoldedText({ text, className }: { text: string; className?: string }) {
  const [open, setOpen] = useState(false);
  const head = foldHead(text);
  const folded = !open && head !== null;
  return (
    <div className={styles.folded}>
      <pre className={className ?? styles.text}>{folded ? `${head}…` : text}</pre>
      {head !== null ? (
        <button type="button" className={styles.showAll} onClick={() => setOpen(!open)}>
          {open ? 'show less' : `show all (${text.length.toLocaleString('en-US')} characters)`}
        </button>
      ) : null}
    </div>
  );
}

/** The part shown folded, or null when the text is short enough to show whole. */
export function foldHead(text: string): string | null {
  let cut = Math.min(text.length, FOLD_CHARS);
  let lines = 0;
  for (let i = 0; i < cut; i++) {
    if (text.charCodeAt(i) === 10 && ++lines >= FOLD_LINES) {
      cut = i;
      break;
    }
  }
  return cut < text.length ? text.slice(0, cut) : null;
}

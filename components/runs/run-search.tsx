import Link from 'next/link';
import type { VerificationState } from '@/trajectory/exit-categories';
import styles from './filters.module.css';

/** What the search bar sets; everything else in the URL is carried along as it was. */
export const SEARCH_PARAMS = ['q', 'verification', 'model', 'costAbove'] as const;

/**
 * Search and the filters beside it as a plain GET form: the URL holds every choice, and it
 * works before scripts load. The other parameters of the page ride along as hidden fields; a new
 * search starts from the first page.
 */
export function RunSearch({
  raw,
  values,
  models,
  clearHref,
}: {
  raw: Record<string, string>;
  values: {
    q?: string;
    verification?: VerificationState;
    model?: string;
    costAbove?: number;
  };
  models: string[];
  clearHref: string | null;
}) {
  const kept = Object.entries(raw).filter(
    ([key]) => key !== 'cursor' && !(SEARCH_PARAMS as readonly string[]).includes(key),
  );
  return (
    <form role="search" aria-label="Search runs" method="get" action="/" className={styles.search}>
      {kept.map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      <label className={styles.field}>
        <span className={styles.srOnly}>Search</span>
        <input
          type="search"
          name="q"
          defaultValue={values.q ?? ''}
          placeholder="Search goal, actions, errors…"
          maxLength={200}
          className={styles.query}
        />
      </label>
      <label className={styles.field}>
        Checked
        <select name="verification" defaultValue={values.verification ?? ''}>
          <option value="">All</option>
          <option value="verified">verified</option>
          <option value="contradicted">contradicted</option>
          <option value="unverified">unverified</option>
        </select>
      </label>
      <label className={styles.field}>
        Model
        <select name="model" defaultValue={values.model ?? ''}>
          <option value="">All</option>
          {[...new Set([...(values.model ? [values.model] : []), ...models])].map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.field}>
        Cost above $
        <input
          type="number"
          name="costAbove"
          min={0}
          step="any"
          inputMode="decimal"
          defaultValue={values.costAbove ?? ''}
          className={styles.cost}
        />
      </label>
      <button type="submit" className="button">
        Search
      </button>
      {clearHref ? <Link href={clearHref}>Clear search</Link> : null}
    </form>
  );
}

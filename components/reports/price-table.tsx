import type { ModelPrice } from '@/trajectory/pricing';
import { STALE_PRICE_DAYS, priceAgeDays } from '@/trajectory/report-prices';
import { formatCount } from '../format';
import styles from './reports.module.css';

/** A rate exactly as configured, with at least cents: $2.50, $0.075, $0.275. */
const rate = (v: number | null) => {
  if (v === null) return '—';
  const decimals = (String(Number(v.toPrecision(10))).split('.')[1] ?? '').length;
  return `$${v.toFixed(Math.max(2, decimals))}`;
};

/** The rates in force, per million tokens, each with how long ago it was checked. */
export function PriceTable({ prices, nowMs }: { prices: ModelPrice[]; nowMs: number }) {
  return (
    <div className={styles.tableWrap}>
      <table className={`${styles.table} ${styles.stacked}`}>
        <caption className="visually-hidden">Model rates in US dollars per million tokens</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col" className={styles.num}>
              Input / MTok
            </th>
            <th scope="col" className={styles.num}>
              Output / MTok
            </th>
            <th scope="col" className={styles.num}>
              Cache read / MTok
            </th>
            <th scope="col">Checked</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {prices.map((p) => {
            const age = priceAgeDays(p.checkedAt, nowMs);
            const stale = age === null || age > STALE_PRICE_DAYS;
            return (
              <tr key={p.model}>
                <th scope="row" style={{ background: 'none', color: 'var(--fg)' }}>
                  <code>{p.model}</code>
                </th>
                <td className={styles.num} data-label="Input / MTok">
                  {rate(p.inputPerMTok)}
                </td>
                <td className={styles.num} data-label="Output / MTok">
                  {rate(p.outputPerMTok)}
                </td>
                <td className={styles.num} data-label="Cache read / MTok">
                  {rate(p.cacheReadPerMTok)}
                </td>
                <td data-label="Checked">
                  <time dateTime={p.checkedAt}>{p.checkedAt}</time>{' '}
                  {stale ? (
                    <span
                      className={styles.incomplete}
                      title={`Older than ${STALE_PRICE_DAYS} days`}
                    >
                      ⚠ {age === null ? 'date unreadable' : `${formatCount(age)} days old`}
                    </span>
                  ) : (
                    <span className="muted">{formatCount(age)} days ago</span>
                  )}
                </td>
                <td className="muted" data-label="Source">
                  {p.source ?? '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

import Link from 'next/link';
import type { AgentOptimum } from '@/trajectory/report-caps-by-agent';
import { assignSeriesStyles } from '../charts/palette';
import { formatCount, formatUsd } from '../format';
import { formatRatio, groupLabel } from './labels';
import styles from './reports.module.css';

/** Each agent's best step cap and best dollar cap, replayed alone; a row links to that agent. */
export function AgentOptimaTable({
  rows,
  hrefFor,
  domain,
}: {
  rows: AgentOptimum[];
  hrefFor: (agent: string | null) => string | null;
  /** Every agent of the window, which fixes each agent's colour. */
  domain: readonly string[];
}) {
  const colors = assignSeriesStyles([...domain, ...rows.map((r) => r.agent)]);
  return (
    <div className={styles.tableWrap}>
      <table className={`${styles.table} ${styles.stacked}`}>
        <caption className="visually-hidden">Best caps per agent</caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col" className={styles.num}>
              Runs
            </th>
            <th scope="col" className={styles.num}>
              As recorded
            </th>
            <th scope="col" className={styles.num}>
              Best step cap
            </th>
            <th scope="col" className={styles.num}>
              Best dollar cap
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const href = hrefFor(r.agent);
            const name = groupLabel(r.agent, 'agent');
            return (
              <tr key={r.agent ?? ''}>
                <th scope="row" className={styles.rowName}>
                  <span
                    className={styles.swatch}
                    style={{ background: colors.get(r.agent)?.color }}
                    aria-hidden="true"
                  />
                  {href ? <Link href={href}>{name}</Link> : name}
                </th>
                <td className={styles.num} data-label="Runs">
                  {formatCount(r.runs)}
                </td>
                <td className={styles.num} data-label="As recorded">
                  {r.asRecorded === null ? '—' : `${formatRatio(r.asRecorded)} / unit`}
                </td>
                <td className={styles.num} data-label="Best step cap">
                  {r.bestStep
                    ? `${formatCount(r.bestStep.cap)} steps → ${formatRatio(r.bestStep.costPerVerifiedUnit)}`
                    : '—'}
                </td>
                <td className={styles.num} data-label="Best dollar cap">
                  {r.bestDollar
                    ? `${formatUsd(r.bestDollar.cap)} → ${formatRatio(r.bestDollar.costPerVerifiedUnit)}`
                    : '—'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

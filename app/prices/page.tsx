import { notFound } from 'next/navigation';
import { formatCount, formatDateTime, formatUsd } from '@/components/format';
import { ViewBar } from '@/components/view/view-bar';
import { PriceTable } from '@/components/reports/price-table';
import { ReportHeader } from '@/components/reports/report-header';
import { ReportNotice } from '@/components/reports/report-notice';
import styles from '@/components/reports/reports.module.css';
import { listPrices, unpricedModels } from '@/db/read/price-list';
import { STALE_PRICE_DAYS, isStalePrice } from '@/trajectory/report-prices';
import { reportContext } from '../reports/page-context';
import type { SearchParams } from '../reports/page-context';
import { reportView } from '../reports/report-view';
import { pricesParams } from '@/lib/report-params';

export const dynamic = 'force-dynamic';

export default async function PricesPage({ searchParams }: { searchParams: SearchParams }) {
  const context = await reportContext(searchParams, pricesParams);
  // A link Loopscope cannot answer is a 404 whose page (./not-found.tsx) names every problem.
  if (!context.ok) notFound();
  const { db, project, query, now } = context;
  const { window, view } = await reportView(query, now);
  const zone = window.timeZone;
  const [prices, missing] = await Promise.all([
    listPrices(db),
    unpricedModels(db, { projectId: project.id, window }),
  ]);
  const nowMs = now.getTime();
  const stale = prices.filter((p) => isStalePrice(p.checkedAt, nowMs));

  return (
    <main id="main" className={`page ${styles.reports}`}>
      <ReportHeader current="prices" title="Prices" view={view}>
        <p className="muted">
          Spend comes from <code>loop.cost_usd</code> where a span sends it, else from tokens times
          these rates. They are configuration: the price file (<code>prices.json</code>, or{' '}
          <code>LOOPSCOPE_PRICES_FILE</code>) is loaded at start. Edit it and restart to change a
          rate; spans that arrive afterwards are priced with it.
        </p>
      </ReportHeader>
      <ViewBar path="/prices" query={query} window={window} />
      {stale.length > 0 && (
        <ReportNotice>
          {stale.length === prices.length
            ? `Every rate was checked more than ${STALE_PRICE_DAYS} days ago`
            : `${stale.length} of ${prices.length} rates ${stale.length === 1 ? 'was' : 'were'} checked more than ${STALE_PRICE_DAYS} days ago`}
          : check {stale.length === 1 ? 'it' : 'them'} against the provider&apos;s price page and
          update the price file.
        </ReportNotice>
      )}
      <section className={`panel ${styles.section}`} aria-labelledby="unpriced-title">
        <div className={styles.sectionHead}>
          <h2 id="unpriced-title">Models seen without a price</h2>
          <p className="muted">In runs of project {project.name} that started in the window.</p>
        </div>
        {missing.length === 0 ? (
          <p>Every model these runs used has a price.</p>
        ) : (
          <>
            <ReportNotice danger>
              {missing.length} model{missing.length === 1 ? '' : 's'} without a price: the spend of
              the runs that used {missing.length === 1 ? 'it' : 'them'} is incomplete (their tokens
              are counted, their dollars are not), and reports mark it. Add a rate to the price
              file.
            </ReportNotice>
            <div className={styles.tableWrap}>
              <table className={styles.table}>
                <caption className="visually-hidden">Models without a price</caption>
                <thead>
                  <tr>
                    <th scope="col">Model</th>
                    <th scope="col" className={styles.num}>
                      Runs
                    </th>
                    <th scope="col" className={styles.num}>
                      Spend counted (incomplete)
                    </th>
                    <th scope="col">Last seen</th>
                  </tr>
                </thead>
                <tbody>
                  {missing.map((m) => (
                    <tr key={m.model}>
                      <th scope="row" style={{ background: 'none', color: 'var(--fg)' }}>
                        <code>{m.model}</code>
                      </th>
                      <td className={styles.num}>{formatCount(m.runs)}</td>
                      <td className={styles.num}>
                        ≥ {formatUsd(m.knownCostUsd)}
                        <span className={styles.incomplete}>incomplete</span>
                      </td>
                      <td>
                        {formatDateTime(m.lastSeen, zone)} {zone}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
      <section className={`panel ${styles.section}`} aria-labelledby="rates-title">
        <div className={styles.sectionHead}>
          <h2 id="rates-title">Rates</h2>
          <p className="muted">US dollars per million tokens; cache reads are part of input.</p>
        </div>
        {prices.length === 0 ? (
          <ReportNotice danger>
            The price table is empty: every model&apos;s spend is incomplete.
          </ReportNotice>
        ) : (
          <PriceTable prices={prices} nowMs={nowMs} />
        )}
      </section>
    </main>
  );
}

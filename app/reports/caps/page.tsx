import { notFound } from 'next/navigation';
import { CapSimulator } from '@/components/reports/cap-simulator';
import { AgentOptimaTable } from '@/components/reports/agent-optima-table';
import { ViewBar } from '@/components/view/view-bar';
import { viewHref } from '@/lib/view-window';
import { optimaByAgent } from '@/trajectory/report-caps-by-agent';
import { DollarCapChart } from '@/components/reports/dollar-cap-chart';
import { formatCount, formatUsd } from '@/components/format';
import { formatRatio } from '@/components/reports/labels';
import { NameSelect, ReportForm } from '@/components/reports/report-form';
import { ReportHeader } from '@/components/reports/report-header';
import { ReportNotice } from '@/components/reports/report-notice';
import styles from '@/components/reports/reports.module.css';
import { MAX_CAP_RUNS, MAX_CAP_STEPS, capRuns } from '@/db/read/cap-runs';
import { reportDimensions } from '@/db/read/weekly-report';
import {
  CEILING_MARGIN,
  bestCap,
  declaredLimit,
  dollarCapCurve,
  recommendedStepCeiling,
  simulateCaps,
  stepCapCandidates,
  stepCapCurve,
} from '@/trajectory/report-caps';
import { reportContext } from '../page-context';
import type { SearchParams } from '../page-context';
import { reportView } from '../report-view';
import { capsParams, weeksOf } from '@/lib/report-params';

export const dynamic = 'force-dynamic';

export default async function BudgetCapsPage({ searchParams }: { searchParams: SearchParams }) {
  const context = await reportContext(searchParams, capsParams);
  // A link Loopscope cannot answer is a 404 whose page (../not-found.tsx) names every problem.
  if (!context.ok) notFound();
  const { params, db, project, query, now } = context;
  const { window, view } = await reportView(query, now);
  const [dimensions, replay] = await Promise.all([
    reportDimensions(db, {
      projectId: project.id,
      ...weeksOf(window),
    }),
    capRuns(db, { projectId: project.id, window, agent: params.agent, variant: params.variant }),
  ]);
  const runs = replay.runs;
  const maxUsd = params.maxUsd ?? null;
  const curve = stepCapCurve(runs, { maxUsd, caps: stepCapCandidates(runs) });
  const best = bestCap(curve);
  const actual = simulateCaps(runs, { maxUsd });
  const asRecorded = simulateCaps(runs, {});
  const dollarCurve = dollarCapCurve(runs);
  const bestDollar = bestCap(dollarCurve);
  const ceiling = recommendedStepCeiling(runs);
  const declared = declaredLimit(runs.map((r) => r.maxSteps));
  const unpriced = runs.filter((r) => r.unpriced).length;
  // Over several agents one optimum averages agents that cost very differently: show each one's.
  const perAgent = params.agent === undefined ? optimaByAgent(runs, { maxUsd }) : [];
  const mixed = perAgent.length > 1;
  const group = [
    params.agent ? `agent ${params.agent}` : null,
    params.variant ? `variant ${params.variant}` : null,
  ].filter(Boolean);

  return (
    <main id="main" className={`page ${styles.reports}`}>
      <ReportHeader current="caps" title="Budget-cap simulator" view={view}>
        <p className="muted">
          Replays finished runs under a step cap (and a dollar cap) from each step&apos;s recorded
          spend. A run longer than the cap is cut there: the spend up to the cut counts, and it is
          no longer verified. A dollar cap is checked before each step, as a harness would: a run
          stops once its spend has reached the cap (the step that crossed it is paid). Spend outside
          any step counts in full.
        </p>
      </ReportHeader>
      <ViewBar path="/reports/caps" query={query} window={window} />
      <ReportForm action="/reports/caps" keep={view} submitLabel="Replay">
        <NameSelect
          label="Agent"
          name="agent"
          value={params.agent}
          options={dimensions.agents}
          anyLabel="All agents"
        />
        <NameSelect
          label="Variant"
          name="variant"
          value={params.variant}
          options={dimensions.variants}
          anyLabel="All variants"
        />
        <label className={styles.field}>
          Dollar cap per run
          <input
            type="number"
            name="maxUsd"
            min="0.0001"
            step="any"
            placeholder="none"
            defaultValue={params.maxUsd}
          />
        </label>
      </ReportForm>
      {replay.truncated && (
        <ReportNotice>
          Replayed the newest {formatCount(runs.length)} of {formatCount(replay.matching)} finished
          runs: the simulator reads at most {formatCount(MAX_CAP_RUNS)} runs and{' '}
          {formatCount(MAX_CAP_STEPS)} steps. Narrow the window or the group to replay all of them.
        </ReportNotice>
      )}
      {unpriced > 0 && (
        <ReportNotice>
          {unpriced} of these runs used a model without a price: their spend is incomplete, so the
          costs below are lower bounds. <a href={viewHref('/prices', view)}>See prices</a>.
        </ReportNotice>
      )}
      {runs.length === 0 ? (
        <ReportNotice>
          No finished runs {group.length ? `of ${group.join(' and ')} ` : ''}started in the window.
        </ReportNotice>
      ) : (
        <>
          <dl className={styles.facts}>
            <div className={styles.fact}>
              <dt>Runs replayed</dt>
              <dd>
                {formatCount(runs.length)}
                <small>{group.length ? group.join(', ') : 'every agent and variant'}</small>
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>As recorded</dt>
              <dd>
                {formatRatio(asRecorded.costPerVerifiedUnit)}
                <small>
                  per verified unit: {formatUsd(asRecorded.costUsd)} /{' '}
                  {formatCount(asRecorded.verifiedUnits)} units
                </small>
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>Best step cap</dt>
              <dd>
                {best ? `${formatCount(best.cap)} steps` : '—'}
                <small>
                  {best
                    ? `${formatRatio(best.costPerVerifiedUnit)} per verified unit, ${best.lostVerifiedRuns} verified run${best.lostVerifiedRuns === 1 ? '' : 's'} lost`
                    : 'no cap leaves a verified run'}
                </small>
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>Recommended step ceiling</dt>
              <dd>
                {ceiling ? `${formatCount(ceiling.ceiling)} steps` : '—'}
                <small>
                  {ceiling
                    ? `longest verified run ${ceiling.longestVerified} + margin ${ceiling.margin} (max of ${CEILING_MARGIN.minSteps} steps and ${CEILING_MARGIN.fraction * 100}%, rounded up)`
                    : 'no verified run to size it from'}
                </small>
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>Declared loop.limits.max_steps</dt>
              <dd>
                {declared.common === null ? 'none' : `${formatCount(declared.common)} steps`}
                <small>
                  {declared.common === null
                    ? 'no run declared a step limit'
                    : declared.min !== declared.max
                      ? `in ${declared.commonRuns} of ${declared.runs} runs; ${declared.min}–${declared.max} declared`
                      : `in ${declared.declaredRuns} of ${declared.runs} runs`}
                </small>
              </dd>
            </div>
          </dl>
          <section className={`panel ${styles.section}`} aria-labelledby="step-cap-title">
            <div className={styles.sectionHead}>
              <h2 id="step-cap-title">Cost per verified unit by step cap</h2>
              <p className="muted">
                {maxUsd === null
                  ? 'No dollar cap.'
                  : `With a dollar cap of ${formatUsd(maxUsd)} per run in force.`}{' '}
                A gap is a cap that leaves nothing verified.
              </p>
            </div>
            <CapSimulator
              curve={curve}
              actual={actual}
              markers={{
                best: best?.cap ?? null,
                recommended: ceiling?.ceiling ?? null,
                declared: declared.common,
              }}
              initialCap={params.cap ?? ceiling?.ceiling ?? best?.cap ?? curve.at(-1)?.cap ?? 1}
            />
          </section>
          <section className={`panel ${styles.section}`} aria-labelledby="dollar-cap-title">
            <div className={styles.sectionHead}>
              <h2 id="dollar-cap-title">Cost per verified unit by dollar cap</h2>
              <p className="muted">
                {bestDollar
                  ? `Best${mixed ? ` over all ${perAgent.length} agents` : ''}: ${formatUsd(bestDollar.cap)} per run, ${formatRatio(bestDollar.costPerVerifiedUnit)} per verified unit (${bestDollar.cutRuns} runs cut). No step cap.`
                  : 'No dollar cap leaves a verified run.'}
                {mixed ? ' One cap for agents that cost differently: see each agent’s below.' : ''}
              </p>
            </div>
            <DollarCapChart curve={dollarCurve} best={bestDollar?.cap ?? null} />
          </section>
          {mixed && (
            <section className={`panel ${styles.section}`} aria-labelledby="per-agent-title">
              <div className={styles.sectionHead}>
                <h2 id="per-agent-title">Optimum per agent</h2>
                <p className="muted">
                  Each agent replayed alone
                  {maxUsd === null
                    ? ''
                    : ` (step caps under the dollar cap of ${formatUsd(maxUsd)})`}
                  : the cap to set in its own harness.
                </p>
              </div>
              <AgentOptimaTable
                rows={perAgent}
                domain={dimensions.agents}
                hrefFor={(agent) =>
                  agent === null ? null : viewHref('/reports/caps', view, { agent })
                }
              />
            </section>
          )}
        </>
      )}
    </main>
  );
}

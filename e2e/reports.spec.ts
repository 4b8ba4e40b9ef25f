// The reports in a browser, on runs a real OTel exporter sent: the weekly report and its
// grouping, two variants side by side, the cap simulator's slider, and the price page.
import { createSender } from './support/otel';
import { emitRun } from './support/scenarios';
import type { RunSpec, StepSpec } from './support/scenarios';
import { createProjectKey, uniqueName } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('reports');
const DAY = 86_400_000;
const WEEK = 7 * DAY;

/** Monday 00:00 UTC of the week `weeksAgo` before this one. */
function mondayUtc(weeksAgo: number): number {
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return today - ((now.getUTCDay() + 6) % 7) * DAY - weeksAgo * WEEK;
}
const firstMonday = mondayUtc(3);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const work = (n: number, costUsd: number, model: string): StepSpec[] =>
  Array.from({ length: n }, (_, k) => ({
    action: `fix_${k}`,
    args: { file: `src/${k}.ts` },
    result: `ok ${k}`,
    costUsd,
    tokens: { input: 1_000, output: 100, model },
  }));
/** The same failing call again and again: a repeat, and wasted spend after it. */
const retries = (n: number, costUsd: number, model: string): StepSpec[] =>
  Array.from({ length: n }, () => ({
    action: 'run_build',
    args: { target: 'all' },
    result: 'error: missing DATABASE_URL',
    costUsd,
    tokens: { input: 1_000, output: 100, model },
  }));

function runsOfWeek(w: number): RunSpec[] {
  const base = firstMonday + w * WEEK + 12 * 3600_000;
  const runs: RunSpec[] = [];
  const add = (spec: Omit<RunSpec, 'goal' | 'agent' | 'startMs'>) =>
    runs.push({
      goal: 'Fix the nightly build',
      agent: 'triage-bot',
      startMs: base + runs.length * 120_000,
      stepMs: 200,
      ...spec,
    });
  for (const [variant, model, maxSteps] of [
    ['uncontrolled', 'gpt-4o', 20],
    ['controlled', 'claude-sonnet-4', 10],
  ] as const) {
    const limits = { maxSteps };
    for (let k = 0; k < 3; k++)
      add({
        variant,
        limits,
        steps: work(3, 0.04, model),
        end: { termination: { kind: 'goal_met' }, verified: true },
      });
    add({
      variant,
      limits,
      steps: work(8, 0.05, model),
      end: { termination: { kind: 'goal_met' }, verified: true },
    });
  }
  // Uncontrolled: more runaways every week, each 20 steps until the ceiling.
  for (let k = 0; k < 1 + w; k++)
    add({
      variant: 'uncontrolled',
      limits: { maxSteps: 20 },
      steps: retries(20, 0.03, 'gpt-4o'),
      end: { termination: { kind: 'step_ceiling', steps: 20, cap: 20 } },
    });
  // Controlled: the guard stops a repeat after 6 steps.
  for (let k = 0; k < 1 + (w % 2); k++)
    add({
      variant: 'controlled',
      limits: { maxSteps: 10 },
      steps: retries(6, 0.03, 'claude-sonnet-4'),
      // A summary by a model without a price, outside the steps: the run's spend is incomplete.
      runLlm: w === 2 && k === 0 ? { input: 1_000, output: 100, model: 'acme-llm-2' } : undefined,
      end: { termination: { kind: 'no_progress', signal: 'repeated_call', step: 2 } },
    });
  return runs;
}

test.beforeAll(async ({ baseURL }) => {
  const key = await createProjectKey(project);
  const sender = createSender({ url: baseURL ?? '', key, gzip: true });
  for (let w = 0; w < 3; w++) for (const spec of runsOfWeek(w)) emitRun(sender.tracer, spec);
  await sender.shutdown();
});

test('the weekly report charts cost per verified unit and switches grouping', async ({
  page,
}, testInfo) => {
  await page.goto(`/reports/weekly?project=${project}&from=${day(firstMonday)}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Weekly cost per verified unit' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Weekly report' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const grouping = page.getByRole('group', { name: 'Group by' });
  await expect(grouping.getByRole('link', { name: 'Agent' })).toHaveAttribute(
    'aria-current',
    'true',
  );
  const table = page.getByRole('table', { name: /per ISO week and agent/ });
  // 3 weeks with runs, newest first.
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row').nth(1)).toContainText('triage-bot');
  await expect(page.locator('.recharts-line')).toHaveCount(1);
  await keepScreen(page, testInfo, 'reports-weekly-by-agent');

  await grouping.getByRole('link', { name: 'Variant' }).click();
  await expect(page).toHaveURL(/groupBy=variant/);
  await expect(grouping.getByRole('link', { name: 'Variant' })).toHaveAttribute(
    'aria-current',
    'true',
  );
  const byVariant = page.getByRole('table', { name: /per ISO week and variant/ });
  await expect(byVariant.getByRole('row')).toHaveCount(7);
  // The oldest week: uncontrolled $1.36 / 4 units, controlled $0.94 / 4 units.
  const oldest = byVariant.getByRole('row').filter({ hasText: 'uncontrolled' }).last();
  await expect(oldest).toContainText('$1.36');
  await expect(oldest).toContainText('$0.340');
  // The next week's uncontrolled is worse (▲), and the controlled with an unpriced model is marked.
  await expect(byVariant.getByRole('row').filter({ hasText: 'uncontrolled' }).nth(1)).toContainText(
    '▲ +$0.150',
  );
  await expect(byVariant.getByRole('link', { name: 'incomplete' })).toHaveCount(1);
  await expect(page.locator('.recharts-line')).toHaveCount(2);
  await expect(page.getByRole('status').filter({ hasText: 'without a price' })).toBeVisible();
  await keepScreen(page, testInfo, 'reports-weekly-by-variant');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keepScreen(page, testInfo, 'reports-weekly-by-variant-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  const csv = await page.request.get(
    (await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href')) ?? '',
  );
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
  // The page's download holds what the page shows (the API's format=csv keeps docs/api.md's columns).
  expect((await csv.text()).split('\r\n')[0]).toBe(
    'week,weekStart,group,runs,verifiedRuns,verifiedUnits,costUsd,unpricedRuns,wastedUsd,' +
      'costPerVerifiedUnit,previousCostPerVerifiedUnit,changeUsd,changePercent',
  );

  // A bad parameter is named on the page, as the API's 400 names it.
  await page.goto(`/reports/weekly?project=${project}&groupBy=team`);
  await expect(page.getByRole('alert').filter({ hasText: 'groupBy:' })).toBeVisible();
});

test('two variants side by side: pass rate, cost per verified unit, the p95 tail and exits', async ({
  page,
}, testInfo) => {
  await page.goto(`/reports/weekly?project=${project}`);
  await page
    .getByRole('navigation', { name: 'Reports' })
    .getByRole('link', { name: 'Compare variants' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Compare two variants' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Variant A' }).selectOption('uncontrolled');
  await page.getByRole('combobox', { name: 'Variant B' }).selectOption('controlled');
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('triage-bot');
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page).toHaveURL(/a=uncontrolled&b=controlled/);

  const summary = page.getByRole('table', { name: /side by side/ });
  // uncontrolled: 18 runs, 12 verified; controlled: 16 runs, 12 verified
  await expect(summary.getByRole('row', { name: /^Runs/ })).toContainText('18');
  await expect(summary.getByRole('row', { name: /^Pass rate/ })).toContainText('67%');
  await expect(summary.getByRole('row', { name: /^Pass rate/ })).toContainText('75%');
  // uncontrolled $5.88 / 12 = $0.490; controlled $3.00 / 12 = $0.250
  await expect(summary.getByRole('row', { name: /^Cost per verified unit/ })).toContainText(
    '$0.490',
  );
  await expect(summary.getByRole('row', { name: /^Cost per verified unit/ })).toContainText(
    '$0.250',
  );
  await expect(summary.getByRole('row', { name: /^Steps per run, p95/ })).toContainText('20');
  await expect(page.getByRole('heading', { name: 'A · uncontrolled' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'B · controlled' })).toBeVisible();
  // 9 runs of 3 steps, 3 of 8, 6 of 20: the median falls between 3 and 8, the p95 in the tail
  await expect(page.getByText('Steps per run — p50 5.5 · p95 20 · max 20')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Exit categories of uncontrolled' })).toContainText(
    'Budget exhausted',
  );
  await expect(page.getByRole('list', { name: 'Exit categories of controlled' })).toContainText(
    'No progress',
  );
  await keepScreen(page, testInfo, 'reports-compare');
});

test('the cap simulator marks the optimum and the recommended ceiling, and the slider moves the cap', async ({
  page,
}, testInfo) => {
  await page.goto(`/reports/caps?project=${project}&variant=uncontrolled`);
  await expect(page.getByRole('heading', { level: 1, name: 'Budget-cap simulator' })).toBeVisible();
  const facts = page.locator('dl').first();
  // longest verified run 8 steps + margin 2; the runs declared 20
  await expect(facts.getByText('Recommended step ceiling').locator('..')).toContainText('10 steps');
  await expect(facts.getByText('Declared loop.limits.max_steps').locator('..')).toContainText(
    '20 steps',
  );
  // cap 3 keeps the 9 short runs: ($1.08 + 3 × $0.15 + 6 × $0.09) / 9 = $0.230
  await expect(facts.getByText('Best step cap').locator('..')).toContainText('3 steps');
  await expect(facts.getByText('As recorded').locator('..')).toContainText('$0.490');

  const slider = page.getByRole('slider', { name: 'Step cap' });
  await expect(slider).toHaveAttribute('aria-valuetext', '10 steps');
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(slider).toHaveAttribute('aria-valuetext', '1 step');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveAttribute('aria-valuetext', '3 steps');
  await expect(page).toHaveURL(/cap=3/);
  const atCap = page.getByText('Cost per verified unit at this cap').locator('..');
  await expect(atCap).toContainText('$0.230');
  await expect(page.getByText('Runs cut', { exact: true }).locator('..')).toContainText('9 of 18');
  await keepScreen(page, testInfo, 'reports-caps');

  await page.getByRole('spinbutton', { name: 'Dollar cap per run' }).fill('0.3');
  await page.getByRole('button', { name: 'Replay' }).click();
  await expect(page).toHaveURL(/maxUsd=0.3/);
  await expect(page.getByText('With a dollar cap of $0.300 per run in force.')).toBeVisible();
});

test('the price page lists rates with their age and the models seen without a price', async ({
  page,
}, testInfo) => {
  await page.goto(`/prices?project=${project}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Prices' })).toBeVisible();
  const rates = page.getByRole('table', { name: /Model rates/ });
  await expect(rates.getByRole('row', { name: /gpt-4o\b/ }).first()).toContainText('$2.50');
  await expect(page.getByRole('status').filter({ hasText: 'more than 90 days ago' })).toBeVisible();
  const missing = page.getByRole('table', { name: 'Models without a price' });
  await expect(missing.getByRole('row', { name: /acme-llm-2/ })).toContainText('incomplete');
  await keepScreen(page, testInfo, 'reports-prices');
});

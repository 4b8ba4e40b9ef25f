// The reports as a new user found them wanting (issue 14): compare opening on variants of
// different agents, one cap optimum over agents that cost very differently, colours that
// repeat, cheap agents flat on $0, and a weekly CSV that did not say what it held.
import type { Page } from '@playwright/test';
import { createSender } from './support/otel';
import { emitRun } from './support/scenarios';
import type { RunSpec, StepSpec } from './support/scenarios';
import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('reportfix');
const HOUR = 3600_000;

const work = (n: number, costUsd: number, model?: string): StepSpec[] =>
  Array.from({ length: n }, (_, k) => ({
    action: `do_${k}`,
    args: { k },
    costUsd,
    ...(model ? { tokens: { input: 1000, output: 100, model } } : {}),
  }));
const verified = { termination: { kind: 'goal_met' }, verified: true } as const;

test.beforeAll(async ({ baseURL }) => {
  const key = await createProjectKey(project);
  const sender = createSender({ url: baseURL ?? '', key, gzip: true });
  const t = Date.now() - 6 * HOUR;
  let k = 0;
  const run = (spec: Omit<RunSpec, 'goal' | 'startMs'>) =>
    emitRun(sender.tracer, { goal: 'Do the work', startMs: t + k++ * 60_000, ...spec });
  // Two agents with one variant each and more runs than the one agent with two.
  for (let i = 0; i < 6; i++)
    run({
      agent: 'ops-agent',
      variant: 'guarded',
      steps: work(4, 0.5, 'claude-sonnet-4'),
      end: verified,
    });
  for (let i = 0; i < 5; i++)
    run({ agent: 'exporter', variant: 'nightly', steps: work(3, 0.2, 'gpt-4o'), end: verified });
  // A cheap agent, with no model at all.
  for (let i = 0; i < 3; i++)
    run({ agent: 'coder', variant: 'v1', steps: work(2, 0.001), end: verified });
  for (let i = 0; i < 2; i++)
    run({ agent: 'coder', variant: 'v2', steps: work(3, 0.001), end: verified });
  for (let i = 0; i < 2; i++)
    run({ agent: 'form-filler', steps: work(2, 0.01, 'gpt-4o'), end: verified });
  await sender.shutdown();
  await waitForRuns(baseURL ?? '', key, 18);
});

test('compare opens on one agent with two variants, and warns when the sides mix agents', async ({
  page,
}, testInfo) => {
  await page.goto(`/reports/compare?project=${project}`);
  await expect(page.getByRole('combobox', { name: 'Agent' })).toHaveValue('coder');
  await expect(page.getByRole('combobox', { name: 'Variant A' })).toHaveValue('v1');
  await expect(page.getByRole('combobox', { name: 'Variant B' })).toHaveValue('v2');
  await expect(page.getByRole('note')).toHaveText(
    'Showing agent coder: the agent with the most runs that has two variants.',
  );
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  await expect(
    page.getByRole('table', { name: /side by side/ }).getByRole('row', { name: /^Runs/ }),
  ).toContainText('3');
  await keepScreen(page, testInfo, 'compare-default-agent');

  // Over all agents the two variants with the most runs are those of two agents: said so.
  await page.goto(`/reports/compare?project=${project}&agent=*`);
  await expect(page.getByRole('combobox', { name: 'Agent' })).toHaveValue('*');
  await expect(page.getByRole('combobox', { name: 'Variant A' })).toHaveValue('guarded');
  await expect(page.getByRole('combobox', { name: 'Variant B' })).toHaveValue('nightly');
  await expect(page.getByRole('main').getByRole('alert')).toContainText(
    'The two sides come from different agents: A (guarded) ran on ops-agent, B (nightly) on exporter.',
  );
  await keepScreen(page, testInfo, 'compare-mixed-agents');
  await page.getByRole('combobox', { name: 'Variant A' }).selectOption('v1');
  await page.getByRole('combobox', { name: 'Variant B' }).selectOption('v2');
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page).toHaveURL(/agent=\*&a=v1&b=v2/);
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'A · v1' })).toBeVisible();
});

test('over several agents the cap page shows each agent’s own optimum', async ({
  page,
}, testInfo) => {
  await page.goto(`/reports/caps?project=${project}`);
  await expect(page.getByText(/^Best over all 4 agents: /)).toBeVisible();
  const table = page.getByRole('table', { name: 'Best caps per agent' });
  await expect(table.getByRole('row')).toHaveCount(1 + 4);
  await expect(table.getByRole('row', { name: /^ops-agent/ })).toContainText('6');
  await expect(table.getByRole('row', { name: /^coder/ })).toContainText('5');
  await keepScreen(page, testInfo, 'caps-per-agent');
  await table.getByRole('link', { name: 'coder' }).click();
  await expect(page).toHaveURL(/agent=coder/);
  await expect(page.getByRole('combobox', { name: 'Agent' })).toHaveValue('coder');
  await expect(page.getByRole('table', { name: 'Best caps per agent' })).toHaveCount(0);
});

/** The resolved colour of each line of the weekly chart, and its points' heights. */
async function lines(page: Page) {
  return page.locator('.recharts-line').evaluateAll((els) =>
    els.map((el) => ({
      stroke: getComputedStyle(el.querySelector('path.recharts-curve') as Element).stroke,
      ys: [
        ...(el.querySelector('path.recharts-curve')?.getAttribute('d') ?? '').matchAll(
          /[ML]\s*[\d.]+[ ,]([\d.]+)/g,
        ),
      ].map((m) => Number(m[1])),
    })),
  );
}
const swatch = (page: Page, table: string, name: string) =>
  page
    .getByRole('table', { name: new RegExp(table) })
    .getByRole('row')
    .filter({ hasText: name })
    .first()
    .locator('[aria-hidden="true"]')
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);

test('each group has its own colour, the same on every page, and a log scale lifts the cheap', async ({
  page,
}, testInfo) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`/reports/weekly?project=${project}`);
    await expect(page.locator('.recharts-line')).toHaveCount(4);
    const byAgent = await lines(page);
    expect(byAgent).toHaveLength(4);
    expect(new Set(byAgent.map((l) => l.stroke)).size).toBe(4);
    const coder = await swatch(page, 'per ISO week and agent', 'coder');
    await page.goto(`/reports/caps?project=${project}`);
    expect(await swatch(page, 'Best caps per agent', 'coder')).toBe(coder);

    await page.goto(`/reports/weekly?project=${project}&groupBy=variant`);
    await expect(page.locator('.recharts-line')).toHaveCount(5);
    expect(new Set((await lines(page)).map((l) => l.stroke)).size).toBe(5);
    const v1 = await swatch(page, 'per ISO week and variant', 'v1');
    await page.goto(`/reports/compare?project=${project}`);
    const heading = page.getByRole('heading', { name: 'A · v1' }).locator('[aria-hidden="true"]');
    expect(await heading.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(v1);
    await page.goto(`/reports/weekly?project=${project}&groupBy=model`);
    await expect(page.locator('.recharts-line')).toHaveCount(3);
    expect(new Set((await lines(page)).map((l) => l.stroke)).size).toBe(3);
    await keepScreen(page, testInfo, `weekly-by-model-${scheme}`);
  }

  // The cheap agent ($0.002 a unit beside $2) lies on $0 on a linear scale, not on a log one.
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`/reports/weekly?project=${project}`);
  await expect(page.locator('.recharts-line')).toHaveCount(4);
  // The plot's bottom and the points' heights, both in the chart's own coordinates.
  const bottom = async () =>
    page.locator('.recharts-cartesian-grid').evaluate((el) => {
      const box = (el as SVGGraphicsElement).getBBox();
      return box.y + box.height;
    });
  const cheapest = async () => {
    const all = await lines(page);
    return Math.max(...all.flatMap((l) => l.ys));
  };
  expect((await bottom()) - (await cheapest())).toBeLessThan(3);
  await page.getByRole('group', { name: 'Scale' }).getByRole('link', { name: 'Log' }).click();
  await expect(page).toHaveURL(/scale=log/);
  await expect(page.getByText('$ per verified unit (log)')).toBeVisible();
  await expect(page.locator('.recharts-line')).toHaveCount(4);
  expect((await bottom()) - (await cheapest())).toBeGreaterThan(12);
  await keepScreen(page, testInfo, 'weekly-log-scale');
});

test('the weekly CSV is named by the weeks it holds and has the page’s columns', async ({
  page,
  request,
}) => {
  await page.goto(`/reports/weekly?project=${project}&groupBy=model`);
  const span = await page.getByText(/^Weeks \d{4}-W\d\d/).textContent();
  const [first, last] = [...(span ?? '').matchAll(/\d{4}-W\d\d/g)].map((m) => m[0]);
  const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  const csv = await request.get(href ?? '');
  expect(csv.headers()['content-disposition']).toBe(
    `attachment; filename="loopscope-weekly-model-${first}-to-${last}.csv"`,
  );
  const [header, ...rows] = (await csv.text()).trim().split('\r\n');
  expect(header).toBe(
    'week,weekStart,group,runs,verifiedRuns,verifiedUnits,costUsd,unpricedRuns,wastedUsd,' +
      'costPerVerifiedUnit,previousCostPerVerifiedUnit,changeUsd,changePercent',
  );
  // Text fields are quoted (so a name never reads as a formula or splits a row); these hold no comma.
  const groups = rows.map((r) => (r.split(',')[2] ?? '').replace(/^"(.*)"$/, '$1'));
  expect(groups).toContain('(no model)');
  expect(groups.every((g) => g !== '')).toBe(true);
  // The page shows the same rows.
  await expect(
    page.getByRole('table', { name: /per ISO week and model/ }).getByRole('row'),
  ).toHaveCount(1 + rows.length);
});

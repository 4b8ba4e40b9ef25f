import { createSender } from './support/otel';
import { emitRun, oscillation, paginatedCrawl, restartLoop, slowStall } from './support/scenarios';
import type { RunSpec } from './support/scenarios';
import { emitWithoutExitReason } from './support/dashboard-scenarios';
import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('dash');
const empty = uniqueName('empty');
const home = `/?project=${project}`;

const fabricated: RunSpec = {
  goal: 'Fix the migration',
  agent: 'coder',
  variant: 'v2',
  steps: [
    { action: 'edit', args: { file: 'a.ts' }, state: { diff: 0 }, costUsd: 0.1 },
    {
      action: 'run_tests',
      args: {},
      state: { diff: 0 },
      verdict: 'fail',
      verdictSource: 'environment',
      costUsd: 0.1,
    },
  ],
  end: { termination: { kind: 'goal_met' } },
};

test.beforeAll(async ({ baseURL }) => {
  const key = await createProjectKey(project);
  await createProjectKey(empty);
  const sender = createSender({ url: baseURL ?? '', key, gzip: true });
  const t = Date.now() - 2 * 3600_000;
  const minute = 60_000;
  emitRun(sender.tracer, restartLoop({ startMs: t, variant: 'v1' }));
  emitRun(sender.tracer, restartLoop({ startMs: t + minute, variant: 'v2' }));
  emitRun(sender.tracer, oscillation(['A', 'B', 'A', 'B'], { startMs: t + 2 * minute }));
  emitRun(sender.tracer, { ...slowStall(8), startMs: t + 3 * minute });
  emitRun(sender.tracer, { ...paginatedCrawl(5), startMs: t + 4 * minute });
  emitRun(sender.tracer, { ...paginatedCrawl(3), startMs: t + 5 * minute });
  emitRun(sender.tracer, { ...fabricated, startMs: t + 6 * minute });
  emitWithoutExitReason(sender.tracer, 'Restore the billing service', t + 7 * minute);
  await sender.shutdown();
  await waitForRuns(baseURL ?? '', key, 8);
});

test('one tile per exit category with its count, share and spend; unknown runs are called out', async ({
  page,
}, testInfo) => {
  await page.goto(home);
  const tiles = page.getByRole('list', { name: 'Runs by exit category' });
  await expect(tiles.getByRole('link')).toHaveCount(4);
  await expect(tiles.getByRole('link', { name: /^No progress: 3 runs, 38%/ })).toBeVisible();
  await expect(tiles.getByRole('link', { name: /^Goal satisfied: 3 runs, 38%/ })).toBeVisible();
  await expect(
    tiles.getByRole('link', { name: /^Budget exhausted: 1 run, 13%, \$0\.080$/ }),
  ).toBeVisible();
  await expect(tiles.getByRole('link', { name: /^Unknown: 1 run/ })).toContainText(
    'did not name why it stopped',
  );
  await expect(page.getByRole('note')).toContainText('1 run did not name why it stopped');
  await expect(page.getByRole('figure')).toContainText('Exit categories over time');
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(1 + 8);
  await keepScreen(page, testInfo, 'home');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keepScreen(page, testInfo, 'home-dark');
});

test('a tile filters the runs by its category; the URL holds it and survives a reload', async ({
  page,
}, testInfo) => {
  await page.goto(home);
  await page.getByRole('link', { name: /^No progress: 3 runs/ }).click();
  await expect(page).toHaveURL(/exitCategory=no_progress/);
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(1 + 3);
  for (const row of await rows.all().then((all) => all.slice(1))) {
    await expect(row.getByRole('cell').nth(3)).toHaveText('No progress');
  }
  await page.reload();
  await expect(page).toHaveURL(/exitCategory=no_progress/);
  await expect(rows).toHaveCount(1 + 3);
  await expect(page.getByRole('link', { name: /^No progress: 3 runs/ })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await keepScreen(page, testInfo, 'home-filtered');
  await page.getByRole('link', { name: 'Remove filter Exit: No progress' }).click();
  await expect(page).not.toHaveURL(/exitCategory/);
  await expect(rows).toHaveCount(1 + 8);
});

test('a loop-signal badge filters by its signal; the raw reason is on hover', async ({ page }) => {
  await page.goto(home);
  const oscillating = page.getByRole('row', { name: /Make the failing test pass/ });
  await expect(oscillating.getByText('No progress')).toHaveAttribute(
    'title',
    'Raw reason: no_progress',
  );
  await oscillating.getByRole('link', { name: 'A/B/A' }).click();
  await expect(page).toHaveURL(/flag=revisit/);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(1 + 1);
  await page.goto(home);
  await page
    .getByRole('row', { name: /Fix the migration/ })
    .getByRole('link', { name: 'fabricated success' })
    .click();
  await expect(page).toHaveURL(/flag=fabricatedSuccess/);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(1 + 1);
  await expect(page.getByRole('row', { name: /Fix the migration/ })).toContainText('contradicted');
});

test('sorting and keyset pages live in the URL', async ({ page }) => {
  await page.goto(`${home}&limit=3`);
  await page.getByRole('button', { name: /Spend/ }).click();
  await expect(page).toHaveURL(/sort=costUsd&order=desc/);
  await expect(page.getByRole('columnheader', { name: /Spend/ })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  const firstRun = page.getByRole('table').getByRole('row').nth(1);
  await expect(firstRun.getByRole('cell').nth(6)).toHaveText('$0.200'); // the most spent
  const seen = new Set<string>();
  for (let pageNo = 0; pageNo < 3; pageNo++) {
    const rows = await page.getByRole('table').getByRole('row').all();
    for (const row of rows.slice(1)) {
      seen.add((await row.getByRole('link').first().getAttribute('title')) ?? '');
    }
    if (pageNo < 2) {
      const first = firstRun.getByRole('link').first();
      const before = await first.getAttribute('title');
      await page.getByRole('link', { name: 'Next page →' }).click();
      await expect(page).toHaveURL(/cursor=/);
      await expect(first).not.toHaveAttribute('title', before ?? '');
    }
  }
  expect(seen.size).toBe(8);
  await expect(page.getByRole('link', { name: 'Next page →' })).toHaveCount(0);
  await page.getByRole('link', { name: '← First page' }).click();
  await expect(page).not.toHaveURL(/cursor=/);
  await expect(page).toHaveURL(/sort=costUsd/);
});

test('agent and window filters change the URL; the project switcher lists every project', async ({
  page,
}) => {
  await page.goto(home);
  await page.getByLabel('Agent').selectOption('coder');
  await expect(page).toHaveURL(/agent=coder/);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(1 + 2);
  await page
    .getByRole('group', { name: 'Time window' })
    .getByRole('link', { name: '24 h' })
    .click();
  await expect(page).toHaveURL(/window=24h/);
  await expect(page).toHaveURL(/agent=coder/);
  await page.getByText('Custom…').click();
  await page.getByLabel('From').fill('2026-01-01');
  await page.getByRole('textbox', { name: 'To (inclusive)' }).fill('2026-01-31');
  await page.getByRole('button', { name: 'Show this range' }).click();
  await expect(page).toHaveURL(/window=custom/);
  await expect(page).toHaveURL(/from=2026-01-01&to=2026-01-31/);
  await expect(page).toHaveURL(/agent=coder/);
  await expect(
    page.getByText('Jan 1, 00:00:00 – Feb 1, 00:00:00 UTC', { exact: false }),
  ).toBeVisible();
  const projects = page.getByLabel('Project');
  await expect(projects).toHaveValue(project);
  await expect(projects.getByRole('option', { name: empty })).toHaveCount(1);
  await projects.selectOption('default');
  await expect(page).toHaveURL(/project=default&window=custom&from=2026-01-01&to=2026-01-31$/);
});

test('an empty project shows how to point an OpenTelemetry exporter at it', async ({
  page,
  baseURL,
}, testInfo) => {
  await page.goto(`/?project=${empty}`);
  await expect(
    page.getByRole('heading', { name: `No runs in project “${empty}” yet` }),
  ).toBeVisible();
  const host = new URL(baseURL ?? '').host;
  await expect(page.getByText(`http://${host}/v1/traces`, { exact: true })).toBeVisible();
  await expect(page.getByText('Authorization: Bearer <key>', { exact: true })).toBeVisible();
  await expect(page.getByText(`npx loopscope keys create --project ${empty}`)).toBeVisible();
  await expect(page.getByText('@opentelemetry/exporter-trace-otlp-proto')).toBeVisible();
  await expect(page.getByRole('table')).toHaveCount(0);
  await keepScreen(page, testInfo, 'empty-project');
});

test.describe('headline numbers', () => {
  const headline = uniqueName('headline');
  const done = (costUsd: number, startMs: number): RunSpec => ({
    goal: 'Ship the release notes',
    agent: 'writer',
    startMs,
    steps: [{ action: 'write_notes', args: {}, costUsd }],
    end: { termination: { kind: 'goal_met' }, verified: true },
  });

  test.beforeAll(async ({ baseURL }) => {
    const key = await createProjectKey(headline);
    const sender = createSender({ url: baseURL ?? '', key });
    const now = Date.now();
    const minute = 60_000;
    // This week: 3 runs, $0.60, one loop wasting $0.10 (steps 3 and 4 of A, B, A, B), 2 units.
    const week = now - 2 * 3600_000;
    emitRun(sender.tracer, oscillation(['A', 'B', 'A', 'B'], { startMs: week }));
    emitRun(sender.tracer, done(0.3, week + minute));
    emitRun(sender.tracer, done(0.1, week + 2 * minute));
    // The 7 days before: 3 runs, $0.60, two loops of the same pattern wasting $0.30, 1 unit.
    const before = now - 8 * 24 * 3600_000;
    emitRun(sender.tracer, oscillation(['A', 'B', 'A', 'B'], { startMs: before }));
    emitRun(
      sender.tracer,
      oscillation(['A', 'B', 'A', 'B', 'A', 'B'], { startMs: before + minute }),
    );
    emitRun(sender.tracer, done(0.1, before + 2 * minute));
    await sender.shutdown();
    await waitForRuns(baseURL ?? '', key, 3);
  });

  test('each figure of the window against the window of the same length before it', async ({
    page,
  }, testInfo) => {
    await page.goto(`/?project=${headline}&window=7d`);
    const numbers = page.getByRole('list', { name: 'Headline numbers, against the 7 d before' });
    const figure = (name: string) => numbers.getByRole('listitem', { name });
    const vs = 'vs the 7 d before';
    await expect(figure(`Runs: 3, no change ${vs}`)).toBeVisible();
    await expect(figure(`Spend: $0.600, no change ${vs}`)).toBeVisible();
    await expect(figure(`Wasted spend: $0.100, −67% ${vs}`)).toBeVisible();
    await expect(figure(`Wasted share: 17%, −33.3 pts ${vs}`)).toBeVisible();
    await expect(figure(`Loop rate: 33%, −33.3 pts ${vs}`)).toBeVisible();
    await expect(figure(`Cost per verified unit: $0.300, −50% ${vs}`)).toBeVisible();
    const loop = numbers.locator('[data-figure="costliestLoop"]');
    await expect(loop).toContainText('$0.100 wasted');
    await expect(loop).toContainText(`−67% ${vs}`);
    await keepScreen(page, testInfo, 'home-headline');
    await page.setViewportSize({ width: 390, height: 844 });
    await keepScreen(page, testInfo, 'home-headline-phone');
    await loop.getByRole('link').click();
    await expect(page).toHaveURL(/\/patterns\?.*signature=/);

    // The previous week alone: nothing before it to compare with, the loop rate of its own runs.
    const from = new Date(Date.now() - 9 * 24 * 3600_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() - 7 * 24 * 3600_000).toISOString().slice(0, 10);
    await page.goto(`/?project=${headline}&window=custom&from=${from}&to=${to}`);
    const custom = page.getByRole('list', { name: /^Headline numbers/ });
    await expect(
      custom.getByRole('listitem', { name: /^Loop rate: 67%, no value in the 3 d before$/ }),
    ).toBeVisible();
    await expect(
      custom.getByRole('listitem', { name: /^Wasted spend: \$0\.300, new vs the 3 d before$/ }),
    ).toBeVisible();
  });
});

// What a link Loopscope cannot answer gets: a 404 (never a 200 that only looks like an error),
// every problem with the link named, a way back, and a page whose scripts the CSP lets run.
import type { Page } from '@playwright/test';
import { createSender } from './support/otel';
import { emitRun, restartLoop } from './support/scenarios';
import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('status');

test.beforeAll(async ({ baseURL }) => {
  const key = await createProjectKey(project);
  const sender = createSender({ url: baseURL ?? '', key, gzip: true });
  emitRun(sender.tracer, restartLoop({ startMs: Date.now() - 3600_000 }));
  await sender.shutdown();
  await waitForRuns(baseURL ?? '', key, 1);
});

/** Console errors and CSP violations, but not the 404 of the document itself. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/status of 404/.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return problems;
}

test('an unknown run answers 404 with its id and the way back', async ({ page }, testInfo) => {
  const problems = watch(page);
  const response = await page.goto(`/runs/no-such-run?project=${project}&window=7d`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'No such run' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('alert')).toContainText(
    `Project ${project} has no run “no-such-run”`,
  );
  await keepScreen(page, testInfo, 'not-found-run');
  await page.getByRole('link', { name: '← All runs' }).click();
  await expect(page).toHaveURL(new RegExp(`/\\?project=${project}&window=7d$`));
  await expect(page.getByRole('heading', { name: 'Runs by exit reason' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('bad parameters on the runs page answer 404 and name every problem', async ({
  page,
}, testInfo) => {
  const problems = watch(page);
  const response = await page.goto(
    `/?project=${project}&exitCategory=nope&from=2026-13-01&flag=loopy&tz=Mars/Olympus_Mons`,
  );
  expect(response?.status()).toBe(404);
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toContainText('This link has 4 parameters Loopscope cannot read');
  await expect(alert.getByRole('listitem')).toHaveCount(4);
  for (const name of ['exitCategory', 'from', 'flag', 'tz']) {
    await expect(alert.getByRole('listitem').filter({ hasText: `${name}:` })).toHaveCount(1);
  }
  await expect(alert).toContainText('from: not a date: use YYYY-MM-DD');
  await keepScreen(page, testInfo, 'not-found-parameters');
  await page.getByRole('link', { name: 'Open it without them' }).click();
  await expect(page).toHaveURL(new RegExp(`/\\?project=${project}$`));
  await expect(page.getByRole('heading', { name: 'Runs by exit reason' })).toBeVisible();

  const missing = await page.goto('/?project=no-such-project');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'There is no project named “no-such-project”.',
  );
  await expect(page.getByRole('link', { name: '← Runs of project default' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('bad parameters on a report answer 404 and name every problem, with a link back', async ({
  page,
  request,
}, testInfo) => {
  const problems = watch(page);
  // Path, bad query, the parameters named, what the way back keeps.
  const cases: [string, string, string[], string][] = [
    [
      '/reports/weekly',
      'from=2026-13-01&groupBy=team&scale=loud',
      ['from', 'groupBy', 'scale'],
      '',
    ],
    ['/reports/compare', 'from=2026-11-02&to=2026-11-01', ['from'], '&to=2026-11-01'],
    ['/reports/caps', 'maxUsd=-1&cap=0.5&window=1y', ['maxUsd', 'cap', 'window'], ''],
    ['/prices', 'from=yesterday&tz=Nowhere', ['from', 'tz'], ''],
  ];
  for (const [path, query, names, kept] of cases) {
    const response = await page.goto(`${path}?project=${project}&${query}`);
    expect(response?.status(), path).toBe(404);
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert.getByRole('listitem')).toHaveCount(names.length);
    for (const name of names) {
      await expect(alert.getByRole('listitem').filter({ hasText: `${name}:` })).toHaveCount(1);
    }
    await expect(page.getByRole('link', { name: 'Open it without them' })).toHaveAttribute(
      'href',
      `${path}?project=${project}${kept}`,
    );
  }
  await keepScreen(page, testInfo, 'not-found-report');
  await page.getByRole('link', { name: 'Open it without them' }).click();
  await expect(page).toHaveURL(new RegExp(`/prices\\?project=${project}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Prices' })).toBeVisible();

  const unknown = await page.goto('/reports/caps?project=no-such-project');
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'There is no project named “no-such-project”.',
  );

  // The download says the same, as the 400 a file request should get.
  const csv = await request.get(
    `/reports/weekly/export?project=${project}&from=2026-13-01&groupBy=team`,
  );
  expect(csv.status()).toBe(400);
  const { error } = (await csv.json()) as { error: { message: string } };
  expect(error.message).toMatch(/^from: .*; groupBy: /);
  expect(problems).toEqual([]);
});

test('a page that does not exist answers 404, runs its scripts, and /runs is the runs list', async ({
  page,
}) => {
  const problems = watch(page);
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-/);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  // Its scripts run (the CSP lets them): the client navigation of the nav works.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Reports' })
    .click();
  await expect(page).toHaveURL(/\/reports\/weekly$/);
  expect(problems).toEqual([]);

  const runs = await page.goto(`/runs?project=${project}&window=24h`);
  expect(runs?.status()).toBe(200);
  await expect(page).toHaveURL(new RegExp(`/\\?project=${project}&window=24h$`));
  await expect(page.getByRole('heading', { name: 'Runs by exit reason' })).toBeVisible();
  const ok = await page.goto(`/reports/weekly?project=${project}`);
  expect(ok?.status()).toBe(200);
});

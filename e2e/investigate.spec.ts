// Investigating in a browser. A person's verdict given on the run page: the run's badge changes,
// the weekly report counts the units at once, a contradiction marks the success fabricated, and
// the note stays text whatever it holds. The search bar narrows the runs list.
import { createSender } from './support/otel';
import { startRun } from '../kit/index';
import { emitRun } from './support/scenarios';
import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('verdict');
const HOSTILE_NOTE = '<img src=x onerror="window.__pwned=1"> checked by hand';
let runId = '';
let projectKey = '';

test.beforeAll(async ({ baseURL }) => {
  const key = await createProjectKey(project);
  projectKey = key;
  const sender = createSender({ url: baseURL ?? '', key, gzip: true });
  runId = emitRun(sender.tracer, {
    goal: 'Migrate the invoices table',
    agent: 'migrator',
    startMs: Date.now() - 3600_000,
    attributes: { 'loop.session.id': 'ticket-1234', 'loop.tags': ['prod', 'db'] },
    steps: [
      { action: 'run_migration', args: { table: 'invoices' }, costUsd: 0.3 },
      { action: 'report', args: {}, costUsd: 0.2 },
    ],
    end: { termination: { kind: 'goal_met' } },
  });
  emitRun(sender.tracer, {
    goal: 'Check the invoices after the migration',
    agent: 'migrator',
    startMs: Date.now() - 3000_000,
    attributes: { 'session.id': 'ticket-1234' },
    steps: [{ action: 'count_rows', args: { table: 'invoices' }, costUsd: 0.02 }],
    end: { termination: { kind: 'model_stopped' } },
  });
  emitRun(sender.tracer, {
    goal: 'Rebuild the search index',
    agent: 'indexer',
    startMs: Date.now() - 1800_000,
    steps: [{ action: 'reindex', args: {}, costUsd: 0.05 }],
    end: { termination: { kind: 'goal_met' } },
  });
  await sender.shutdown();
  await waitForRuns(baseURL ?? '', key, 3);
});

test('a verdict given on the run page changes its badge and the weekly numbers', async ({
  page,
}, testInfo) => {
  const runPage = `/runs/${encodeURIComponent(runId)}?project=${project}`;
  await page.goto(runPage);
  const checked = page.getByRole('region', { name: 'Verification and signals' });
  await expect(checked).toContainText('unverified');
  await expect(page.getByText('session ticket-1234')).toBeVisible();
  await expect(page.getByText('tags prod, db')).toBeVisible();

  const verdict = page.getByRole('region', { name: 'Your verdict' });
  // Nothing is chosen for the reviewer, and the form will not go without a choice.
  await expect(verdict.getByLabel('verified')).not.toBeChecked();
  await expect(verdict.getByLabel('contradicted')).not.toBeChecked();
  expect(
    await verdict
      .getByLabel('verified')
      .evaluate((input) => (input as HTMLInputElement).validity.valueMissing),
  ).toBe(true);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await verdict.scrollIntoViewIfNeeded();
  await keepScreen(page, testInfo, 'verdict-empty-390-dark');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
  await verdict.getByLabel('verified').check();
  await verdict.getByLabel('units').fill('2');
  await verdict.getByLabel(/Note/).fill(HOSTILE_NOTE);
  await verdict.getByRole('button', { name: 'Record verdict' }).click();

  await expect(checked).toContainText('✓ verified · by a person');
  await expect(checked).toContainText('2 unit(s)');
  await expect(verdict).toContainText('You checked: verified, 2 unit(s)');
  // The note is shown as the text it is: no element was made of it, nothing ran.
  await expect(verdict.getByRole('blockquote')).toHaveText(HOSTILE_NOTE);
  expect(await verdict.locator('img').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await keepScreen(page, testInfo, 'verdict-given');

  await page.goto(`/reports/weekly?project=${project}`);
  const row = page.getByRole('row').filter({ hasText: 'migrator' });
  // $0.52 spent by migrator's two runs, 2 units a person confirmed.
  await expect(row).toContainText('$0.260');

  await page.goto(runPage);
  await verdict.getByLabel('contradicted').check();
  await verdict.getByRole('button', { name: 'Record verdict' }).click();
  await expect(checked).toContainText('✗ contradicted · by a person');
  await expect(page.getByRole('alert').filter({ hasText: 'Fabricated success.' })).toContainText(
    'a person who checked it contradicted it',
  );
  await expect(checked).toContainText('fabricated success');
  await page.goto(`/reports/weekly?project=${project}`);
  await expect(page.getByRole('row').filter({ hasText: 'migrator' })).not.toContainText('$0.260');

  await page.goto(runPage);
  await verdict.getByRole('button', { name: 'Take back' }).click();
  await expect(checked).toContainText('unverified');
  await expect(verdict).not.toContainText('You checked');
});

test('a search narrows the runs list, and hostile text is only text', async ({
  page,
}, testInfo) => {
  await page.goto(`/?project=${project}`);
  const table = page.getByRole('table').last();
  await expect(table.getByRole('link', { name: 'Rebuild the search index' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Migrate the invoices table' })).toBeVisible();
  const search = page.getByRole('search', { name: 'Search runs' });
  await search.getByRole('searchbox').fill('run_migration invoices');
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/q=run_migration\+invoices/);
  await expect(table.getByRole('link', { name: 'Migrate the invoices table' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Rebuild the search index' })).toHaveCount(0);
  await keepScreen(page, testInfo, 'search-narrowed');

  await search.getByRole('searchbox').fill(`%_' "\\ <b>x</b>`);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('status')).toHaveText('No run in this window matches the search.');
  // Said once, over no empty table.
  await expect(page.getByText(/No runs? (in this window )?match/)).toHaveCount(1);
  await expect(page.getByRole('columnheader', { name: 'Agent' })).toHaveCount(0);
  await keepScreen(page, testInfo, 'search-nothing');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.getByText(/No runs? (in this window )?match/)).toHaveCount(1);
  await keepScreen(page, testInfo, 'search-nothing-390-dark');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(search.getByRole('searchbox')).toHaveValue(`%_' "\\ <b>x</b>`);

  await page.getByRole('link', { name: 'Clear search' }).click();
  await expect(table.getByRole('link', { name: 'Rebuild the search index' })).toBeVisible();
  await search.getByLabel('Cost above $').fill('0.1');
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/costAbove=0.1/);
  await expect(table.getByRole('link', { name: 'Rebuild the search index' })).toHaveCount(0);
  await expect(table.getByRole('link', { name: 'Migrate the invoices table' })).toBeVisible();
});

test('a run links to its session, whose page lists its runs in order', async ({
  page,
}, testInfo) => {
  await page.goto(`/runs/${encodeURIComponent(runId)}?project=${project}`);
  await page.getByRole('link', { name: 'ticket-1234' }).click();
  await expect(page).toHaveURL(/\/sessions\/ticket-1234/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Session ticket-1234');
  const runs = page.getByRole('table', { name: 'Runs of the session' }).getByRole('row');
  await expect(runs).toHaveCount(3);
  await expect(runs.nth(1)).toContainText('Migrate the invoices table');
  await expect(runs.nth(2)).toContainText('Check the invoices after the migration');
  await expect(page.getByText('Total spend')).toBeVisible();
  await expect(page.getByRole('img', { name: /Spend per run/ })).toBeVisible();
  // Exits by their labels, never their ids.
  const exits = page.getByText(/^agent migrator · /);
  await expect(exits).toHaveText(/^agent migrator · \d+ [a-z ]+( · \d+ [a-z ]+)*$/);
  await keepScreen(page, testInfo, 'session-page');

  await page.getByRole('link', { name: '← Sessions' }).click();
  const sessions = page.getByRole('table', { name: 'Sessions' });
  const row = sessions.getByRole('row').filter({ hasText: 'ticket-1234' });
  await expect(row).toContainText('migrator');
  // The window is the reader's, as on every list: picked here, kept by the session's link.
  await page.getByRole('group', { name: 'Time window' }).getByRole('link', { name: '7 d' }).click();
  await expect(page).toHaveURL(/\/sessions\?.*window=7d/);
  await expect(row).toContainText('migrator');
  await row.getByRole('link', { name: 'ticket-1234' }).click();
  await expect(page).toHaveURL(/\/sessions\/ticket-1234\?.*window=7d/);
  await page.goBack();
  await expect(row).not.toContainText('_');
  await expect(row).toContainText(/\d+ (goal satisfied|no progress|model stopped|unknown)/);
  await keepScreen(page, testInfo, 'sessions-list');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keepScreen(page, testInfo, 'sessions-list-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreen(page, testInfo, 'sessions-list-390-dark');
  await page.goto(`/sessions/ticket-1234?project=${project}`);
  await expect(exits).toHaveText(/^agent migrator · \d+ [a-z ]+( · \d+ [a-z ]+)*$/);
  await keepScreen(page, testInfo, 'session-page-390-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await keepScreen(page, testInfo, 'session-page-390');
});

test('"to check" lists unchecked success claims; a reviewer works through them with the keyboard', async ({
  page,
}, testInfo) => {
  await page.goto(`/to-check?project=${project}`);
  const list = page.getByRole('list', { name: 'Runs to check' });
  const items = list.getByRole('link');
  await expect(items).toHaveCount(3);
  // Newest first; the most expensive first on request.
  await expect(items.nth(0)).toContainText('Rebuild the search index');
  await keepScreen(page, testInfo, 'to-check');
  await page.getByRole('link', { name: 'most expensive first' }).click();
  await expect(items.nth(0)).toContainText('Migrate the invoices table');

  // The list takes j and k as the page opens: nothing to click or tab to first.
  await page.keyboard.press('j');
  await expect(items.nth(0)).toBeFocused();
  await page.keyboard.press('j');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('k');
  await expect(items.nth(0)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Migrate the invoices table');
  const verdict = page.getByRole('region', { name: 'Your verdict' });
  await verdict.getByLabel('verified').check();
  await verdict.getByRole('button', { name: 'Record verdict' }).click();
  await expect(verdict).toContainText('You checked: verified');

  await page.goto(`/to-check?project=${project}`);
  await expect(items).toHaveCount(2);
  await expect(list).not.toContainText('Migrate the invoices table');
});

test('a new run appears on the open home page without a reload, behind a pill', async ({
  page,
  baseURL,
}) => {
  await page.goto(`/?project=${project}`);
  const table = page.getByRole('table').last();
  await expect(table.getByRole('link', { name: 'Rebuild the search index' })).toBeVisible();
  await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
  const sender = createSender({ url: baseURL ?? '', key: projectKey, gzip: true });
  emitRun(sender.tracer, {
    goal: 'A run that arrived while you were reading',
    agent: 'latecomer',
    startMs: Date.now() - 5_000,
    steps: [{ action: 'wave', args: {}, costUsd: 0.01 }],
    end: { termination: { kind: 'goal_met' } },
  });
  await sender.shutdown();
  const pill = page.getByRole('button', { name: /1 new run/ });
  await expect(pill).toBeVisible({ timeout: 20_000 });
  // Rows do not move under the reader: the run waits behind the pill.
  await expect(table.getByRole('link', { name: /arrived while you were reading/ })).toHaveCount(0);
  await pill.click();
  await expect(table.getByRole('link', { name: /arrived while you were reading/ })).toBeVisible();
  await expect(pill).toHaveCount(0);
  // Shown without a reload: the same document.
  expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(
    true,
  );
});

test('a running run’s open page offers its new steps without a reload, then its end', async ({
  page,
  baseURL,
}, testInfo) => {
  const sender = createSender({ url: baseURL ?? '', key: projectKey, gzip: true });
  const start = Date.now() - 60_000;
  const liveRunId = uniqueName('live-run');
  const run = startRun(sender.tracer, {
    goal: 'Watch a run while it goes',
    agent: 'watcher',
    runId: liveRunId,
    startTime: start,
  });
  const step = (k: number) => {
    const s = run.step({ action: `probe_${k}`, args: { k }, startTime: start + k * 1000 });
    s.observe({ state: { k } });
    s.end(start + k * 1000 + 500);
  };
  step(1);
  step(2);
  await sender.flush();
  const runPath = `/runs/${liveRunId}?project=${project}`;
  await expect
    .poll(async () => (await page.request.get(runPath)).status(), { timeout: 20_000 })
    .toBe(200);
  await page.goto(runPath);
  await expect(page.getByRole('row').filter({ hasText: 'probe_2' }).first()).toBeVisible();
  // Its root span (goal, agent) comes at its end: until then they are not known, not absent.
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Running: its goal comes with the end of the run');
  await expect(page.getByText('variant not known yet')).toBeVisible();
  await expect(page.getByText(/No goal was sent|no reason sent/)).toHaveCount(0);
  await keepScreen(page, testInfo, 'live-run-header');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(heading).toHaveText('Running: its goal comes with the end of the run');
  await keepScreen(page, testInfo, 'live-run-header-390-dark');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true));
  step(3);
  step(4);
  await sender.flush();
  const pill = page.getByRole('button', { name: /2 new steps/ });
  await expect(pill).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('probe_3')).toHaveCount(0);
  await pill.click();
  await expect(page.getByText('probe_4').first()).toBeVisible();
  run.end({ kind: 'goal_met' }, { endTime: start + 5000 });
  await sender.shutdown();
  const ended = page.getByRole('button', { name: /The run has ended/ });
  await expect(ended).toBeVisible({ timeout: 20_000 });
  await ended.click();
  await expect(ended).toHaveCount(0);
  await expect(heading).toHaveText('Watch a run while it goes');
  await expect(page.getByText('agent watcher')).toBeVisible();
  expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(
    true,
  );
});

test('the verdict form reads well at 390px and in dark mode', async ({ browser }, testInfo) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      colorScheme,
    });
    const page = await context.newPage();
    await page.goto(`/runs/${encodeURIComponent(runId)}?project=${project}`);
    await expect(page.getByRole('region', { name: 'Your verdict' })).toBeVisible();
    await keepScreen(page, testInfo, `verdict-390-${colorScheme}`);
    await context.close();
  }
  const page = await browser.newPage({
    viewport: { width: 1280, height: 900 },
    colorScheme: 'dark',
  });
  await page.goto(`/runs/${encodeURIComponent(runId)}?project=${project}`);
  await keepScreen(page, testInfo, 'verdict-1280-dark');
  await page.close();
});

// The runs page as a new user found it wanting (issue 14): a custom range that can be used, a
// table whose columns keep apart, a card per run on a phone, every part answering for the same
// filter, and one window and time zone carried from page to page.
import { createSender } from './support/otel';
import { emitRun, oscillation, paginatedCrawl, restartLoop, slowStall } from './support/scenarios';
import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import { LOOKS, expectNoSidewaysScroll, expectUncovered, look } from './support/layout';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('issues');
const home = `/?project=${project}`;
const LONG_AGENT = 'invoice-reconciliation-agent-eu-west';
const LONG_VARIANT = 'experimental-retry-budget';
let startedAt = '';

test.beforeAll(async ({ baseURL }) => {
  const key = await createProjectKey(project);
  const sender = createSender({ url: baseURL ?? '', key, gzip: true });
  const t = Date.now() - 3 * 3600_000;
  const minute = 60_000;
  emitRun(sender.tracer, restartLoop({ startMs: t, variant: 'guard' }));
  emitRun(sender.tracer, oscillation(['A', 'B', 'A', 'B'], { startMs: t + minute }));
  emitRun(sender.tracer, { ...slowStall(6), startMs: t + 2 * minute });
  emitRun(sender.tracer, { ...paginatedCrawl(4), startMs: t + 3 * minute });
  // 8 steps of 101.5 s: 13 m 32 s, under names longer than their columns.
  emitRun(sender.tracer, {
    ...paginatedCrawl(7),
    agent: LONG_AGENT,
    variant: LONG_VARIANT,
    startMs: t + 4 * minute,
    stepMs: 101_500,
  });
  await sender.shutdown();
  await waitForRuns(baseURL ?? '', key, 5);
  const response = await fetch(`${baseURL}/api/v1/runs?agent=${LONG_AGENT}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  startedAt = ((await response.json()) as { runs: { startedAt: string }[] }).runs[0]!.startedAt;
});

test('the custom range opens in the page, uncovered, with the presets where they were', async ({
  page,
}, testInfo) => {
  for (const l of LOOKS) {
    await look(page, l);
    await page.goto(home);
    const presets = page.getByRole('group', { name: 'Time window' });
    const day = presets.getByRole('link', { name: '24 h' });
    const before = await day.boundingBox();
    const custom = presets.getByRole('button', { name: 'Custom…' });
    await custom.focus();
    await page.keyboard.press('Enter');
    await expect(custom).toHaveAttribute('aria-expanded', 'true');
    const form = page.getByRole('form', { name: 'Custom time window' });
    const from = form.getByLabel('From');
    await expect(from).toBeFocused();
    await from.fill('2026-01-01');
    await form.getByLabel('To').fill('2026-01-31');
    // Nothing moved the presets, nothing covers the form: it opened in the flow of the page.
    expect(await day.boundingBox()).toEqual(before);
    for (const preset of ['24 h', '7 d', '30 d', '90 d']) {
      await expect(presets.getByRole('link', { name: preset })).toBeInViewport();
    }
    const submit = form.getByRole('button', { name: 'Show this range' });
    await submit.scrollIntoViewIfNeeded();
    for (const part of [from, form.getByLabel('To'), submit]) await expectUncovered(part);
    await expectNoSidewaysScroll(page);
    await keepScreen(page, testInfo, `custom-range-${l.name}`);
    await page.keyboard.press('Escape');
    await expect(custom).toHaveAttribute('aria-expanded', 'false');
    await expect(custom).toBeFocused();
    await page.keyboard.press('Enter');
    await form.getByLabel('To').focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/window=custom&from=2026-01-01&to=2026-01-31/);
    await expect(page.getByText('Jan 1, 00:00:00 – Feb 1, 00:00:00 UTC')).toBeVisible();
  }
});

test('agent, variant and exit keep to their columns; durations and times stay on one line', async ({
  page,
}, testInfo) => {
  await look(page, LOOKS[0]!);
  await page.goto(home);
  const row = page.getByRole('row').filter({ hasText: LONG_AGENT.slice(0, 10) });
  const agent = row.getByTitle(LONG_AGENT);
  const variant = row.getByTitle(LONG_VARIANT);
  const exit = row.getByText('Goal satisfied');
  await expect(agent).toBeVisible();
  for (const [left, right] of [
    [agent, variant],
    [variant, exit],
  ] as const) {
    const a = (await left.boundingBox())!;
    const b = (await right.boundingBox())!;
    expect(a.x + a.width).toBeLessThanOrEqual(b.x);
    // Cut with an ellipsis, whole on hover.
    expect(await left.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  }
  const duration = row.getByRole('cell').nth(10);
  await expect(duration).toHaveText('13 m 32 s');
  const lines = async (cell: typeof duration) =>
    cell.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
  expect(await lines(duration)).toBe(1);
  expect(await lines(row.getByRole('cell').nth(9))).toBe(1);
  await keepScreen(page, testInfo, 'runs-table-long-names');
  // Columns sized by the page's content: at 1440 px the agent gets the room a signals column
  // without badges leaves (its fixed 120 px showed 12 characters of it).
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await agent.evaluate((el) => el.clientWidth)).toBeGreaterThanOrEqual(160);
  // ... and the whole table fits the page: nothing to scroll sideways for.
  const scroller = page.getByRole('table').last().locator('xpath=..');
  expect(await scroller.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await keepScreen(page, testInfo, 'runs-table-1440');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keepScreen(page, testInfo, 'runs-table-1440-dark');
});

test('on a phone every run is a card with its exit, spend and signals in view', async ({
  page,
}, testInfo) => {
  for (const l of LOOKS.filter((x) => x.viewport.name === 'phone')) {
    await look(page, l);
    await page.goto(home);
    await expectNoSidewaysScroll(page);
    // A card per run, and no header row: each card names its values.
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(5);
    await expect(page.getByRole('columnheader')).toHaveCount(0);
    const loop = rows.filter({ hasText: 'Bring the orders service back up' });
    for (const part of [
      loop.getByText('No progress'),
      loop.getByText('$0.070'),
      loop.getByRole('link', { name: 'repeat' }),
      loop.getByRole('link', { name: 'Bring the orders service back up' }),
    ]) {
      await part.scrollIntoViewIfNeeded();
      const box = (await part.boundingBox())!;
      expect(box.width).toBeGreaterThan(0);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(l.viewport.width);
    }
    await keepScreen(page, testInfo, `runs-cards-${l.name}`);
  }
  // The headers are gone on a phone; a menu sorts instead.
  await page.getByLabel('Sort runs by').selectOption('Most spend');
  await expect(page).toHaveURL(/sort=costUsd&order=desc/);
  await expect(page.getByRole('table').getByRole('row').first()).toContainText('$0.200');
});

test('every part of the page answers for the same filter', async ({ page }, testInfo) => {
  await page.goto(`${home}&flag=revisit`);
  const tiles = page.getByRole('list', { name: /^Runs by exit category, Signal: A\/B\/A$/ });
  await expect(tiles.getByRole('link')).toHaveCount(1);
  await expect(tiles.getByRole('link', { name: /^No progress: 1 run, 100%/ })).toBeVisible();
  await expect(page.getByRole('figure')).toContainText('1 run (Signal: A/B/A), per day');
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(1 + 1);
  await expect(page.getByLabel('Agent').getByRole('option')).toHaveText(['All', 'coder (1)']);
  await keepScreen(page, testInfo, 'filtered-by-signal');

  await page.goto(`${home}&exitCategory=no_progress`);
  // The tiles choose the category, so they show every one; the rest count only that one.
  await expect(
    page.getByRole('list', { name: 'Runs by exit category' }).getByRole('link'),
  ).toHaveCount(3);
  await expect(page.getByRole('figure')).toContainText('2 runs (Exit: No progress), per day');
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(1 + 2);
  await expect(page.getByLabel('Agent').getByRole('option')).toHaveText([
    'All',
    'coder (1)',
    'ops-agent (1)',
  ]);
});

test.describe('in the reader’s own time zone', () => {
  test.use({ timezoneId: 'Europe/Berlin' });

  test('the window and the zone go with the reader from page to page, URL first', async ({
    page,
  }, testInfo) => {
    await page.goto(`${home}&window=7d`);
    await page.getByRole('group', { name: 'Times' }).getByRole('button', { name: 'Local' }).click();
    await expect(page).toHaveURL(/tz=Europe%2FBerlin/);
    await expect(page.getByText(/– .* Europe\/Berlin · project/)).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Started (local)' })).toBeVisible();
    const berlin = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Europe/Berlin',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(startedAt));
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: LONG_AGENT.slice(0, 10) })
        .getByRole('cell')
        .nth(9),
    ).toHaveText(berlin);

    const main = page.getByRole('navigation', { name: 'Main' });
    await expect(main.getByRole('link', { name: 'Runs' })).toHaveAttribute('aria-current', 'page');
    await main.getByRole('link', { name: 'Reports' }).click();
    await expect(page).toHaveURL(/\/reports\/weekly\?project=.*&window=7d&tz=Europe%2FBerlin/);
    const presets = page.getByRole('group', { name: 'Time window' });
    await expect(presets.getByRole('link', { name: '7 d' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(
      page.getByRole('group', { name: 'Times' }).getByRole('button', { name: /^Local/ }),
    ).toHaveAttribute('aria-pressed', 'true');
    await page
      .getByRole('navigation', { name: 'Reports' })
      .getByRole('link', { name: 'Compare variants' })
      .click();
    await expect(page).toHaveURL(/\/reports\/compare\?project=.*&window=7d&tz=Europe%2FBerlin/);
    await main.getByRole('link', { name: 'Runs' }).click();
    await expect(page).toHaveURL(/\/\?project=.*&window=7d&tz=Europe%2FBerlin/);
    await page.getByRole('link', { name: 'Export every invoice' }).first().click();
    await expect(page).toHaveURL(/\/runs\/.*window=7d&tz=Europe%2FBerlin/);
    await expect(page.getByText(/started .* Europe\/Berlin/)).toBeVisible();
    await page.getByRole('link', { name: '← Runs' }).click();
    await expect(page).toHaveURL(/\/\?project=.*&window=7d&tz=Europe%2FBerlin/);
    await keepScreen(page, testInfo, 'local-time');

    // Remembered without the URL; the URL wins over it; UTC again is one press.
    await page.goto(home);
    await expect(page.getByText(/Europe\/Berlin · project/)).toBeVisible();
    await page.goto(`${home}&tz=UTC`);
    await expect(page.getByText(/UTC · project/)).toBeVisible();
    await page.goto(home);
    await page.getByRole('group', { name: 'Times' }).getByRole('button', { name: 'UTC' }).click();
    await expect(page).toHaveURL(/tz=UTC/);
    await page.goto(home);
    await expect(page.getByText(/UTC · project/)).toBeVisible();
  });
});

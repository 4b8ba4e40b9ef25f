// Every page of the dashboard at 1440×900 and 390×844, light and dark, on the sample runs: no page
// wider than the screen, each one kept as a screenshot, and each usable with the keyboard alone.
import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import {
  LOOKS,
  VIEWPORTS,
  expectInView,
  expectNoSidewaysScroll,
  look,
  tabTo,
} from './support/layout';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('layout');
let shortRun = '';
let longRun = '';

test.beforeAll(async ({ baseURL, request }) => {
  test.setTimeout(180_000);
  const key = await createProjectKey(project);
  // The internal route serves the dashboard's pages: a page load hands out its session first.
  expect((await request.get('/')).status()).toBe(200);
  const loaded = await request.post('/api/ui/demo', { data: { project } });
  expect(loaded.status()).toBe(200);
  // Four weeks of sample runs: the API's default window (30 days) holds them all.
  await waitForRuns(baseURL ?? '', key, 78);
  const response = await fetch(`${baseURL}/api/v1/runs?limit=500&sort=stepCount`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const bySteps = ((await response.json()) as { runs: { id: string }[] }).runs;
  longRun = bySteps[0]!.id;
  shortRun = bySteps[bySteps.length - 1]!.id;
});

const pages = () => [
  { name: 'runs', path: `/?project=${project}` },
  { name: 'runs-filtered', path: `/?project=${project}&window=90d&flag=stall` },
  { name: 'run', path: `/runs/${encodeURIComponent(longRun)}?project=${project}&step=12` },
  { name: 'run-trace', path: `/runs/${encodeURIComponent(longRun)}?project=${project}&view=trace` },
  { name: 'weekly', path: `/reports/weekly?project=${project}&window=90d` },
  { name: 'weekly-model-log', path: `/reports/weekly?project=${project}&groupBy=model&scale=log` },
  { name: 'compare', path: `/reports/compare?project=${project}` },
  { name: 'caps', path: `/reports/caps?project=${project}` },
  { name: 'prices', path: `/prices?project=${project}` },
  { name: 'patterns', path: `/patterns?project=${project}&window=90d` },
  {
    name: 'run-diff',
    path: `/runs/compare?a=${encodeURIComponent(longRun)}&b=${encodeURIComponent(shortRun)}&project=${project}`,
  },
  { name: 'sessions', path: `/sessions?project=${project}&window=90d` },
  { name: 'to-check', path: `/to-check?project=${project}` },
  { name: 'alerts', path: `/alerts?project=${project}` },
  { name: 'not-found', path: '/no-such-page' },
  { name: 'not-found-run', path: `/runs/no-such-run?project=${project}` },
  { name: 'not-found-query', path: `/?project=${project}&exitCategory=nope&from=2026-13-01` },
];

test('no page scrolls sideways, at either size, in either scheme', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  for (const l of LOOKS) {
    await look(page, l);
    for (const p of pages()) {
      await page.goto(p.path);
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page);
      // The header's parts never sit on one another (the tagline gives way on a phone).
      const header = await page.locator('.app-header > *').evaluateAll((els) =>
        els
          .filter((el) => getComputedStyle(el).display !== 'none')
          .map((el) => el.getBoundingClientRect())
          .map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom })),
      );
      for (let i = 0; i < header.length; i++) {
        for (let j = i + 1; j < header.length; j++) {
          const [a, b] = [header[i]!, header[j]!];
          const overlap =
            a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          expect(overlap, `${p.name}: header parts ${i} and ${j} overlap`).toBe(false);
        }
      }
      await keepScreen(page, testInfo, `${p.name}-${l.name}`);
    }
  }
});

for (const viewport of VIEWPORTS) {
  test(`the runs page works with the keyboard alone (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(`/?project=${project}`);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    const window = page.getByRole('group', { name: 'Time window' });
    await tabTo(page, window.getByRole('link', { name: '90 d' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/window=90d/);
    await tabTo(page, page.getByLabel('Agent'));
    await expect(page.getByLabel('Agent')).toBeFocused();
    const tile = page.getByRole('link', { name: /^No progress: \d+ runs?/ });
    await tabTo(page, tile);
    await expectInView(page, tile);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/exitCategory=no_progress/);
    const firstRun = page.getByRole('table').getByRole('row').getByRole('link').first();
    await tabTo(page, firstRun);
    await expectInView(page, firstRun);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/runs\//);
  });

  test(`a run's steps and their detail work with the keyboard alone (${viewport.name})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto(`/runs/${encodeURIComponent(longRun)}?project=${project}`);
    const grid = page.getByRole('grid', { name: 'Steps' });
    await tabTo(page, grid);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect(page).toHaveURL(/step=2/);
    const detail = page.getByRole('complementary', { name: 'Step 2 detail' });
    await expect(detail).toContainText('Arguments');
    await tabTo(page, detail);
    await expect(detail).toBeInViewport();
    // Its attributes are read by scrolling with the keyboard, the box itself or the page.
    const attributes = detail.getByRole('heading', { name: /^Attributes/ });
    for (let k = 0; k < 12 && !(await attributes.isVisible()); k++)
      await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    await expect(attributes).toBeInViewport();
  });

  test(`the reports work with the keyboard alone (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(`/reports/weekly?project=${project}`);
    await tabTo(
      page,
      page.getByRole('group', { name: 'Group by' }).getByRole('link', { name: 'Model' }),
    );
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/groupBy=model/);
    await tabTo(
      page,
      page.getByRole('group', { name: 'Scale' }).getByRole('link', { name: 'Log' }),
    );
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/scale=log/);
    const tabs = page.getByRole('navigation', { name: 'Reports' });
    await tabTo(page, tabs.getByRole('link', { name: 'Budget caps' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/reports\/caps/);
    const slider = page.getByRole('slider', { name: 'Step cap' });
    await tabTo(page, slider);
    await page.keyboard.press('Home');
    await expect(slider).toHaveAttribute('aria-valuetext', '1 step');
    await expect(page).toHaveURL(/cap=1/);
    // Prices is a tab of the reports, and only that: the main navigation has no second way in.
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Prices' }),
    ).toHaveCount(0);
    await tabTo(page, tabs.getByRole('link', { name: 'Prices' }), 400);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/prices/);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }),
    ).toHaveAttribute('aria-current', 'page');
    await tabTo(page, tabs.getByRole('link', { name: 'Compare variants' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/reports\/compare/);
    const variantB = page.getByRole('combobox', { name: 'Variant B' });
    await tabTo(page, variantB);
    const before = await variantB.inputValue();
    await page.keyboard.press('ArrowUp');
    await expect(variantB).not.toHaveValue(before);
    await tabTo(page, page.getByRole('button', { name: 'Compare' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/b=/);
  });
}

import { createSender } from './support/otel';
import { emitRun, fixedRestart, restartLoop } from './support/scenarios';
import { HOSTILE_ARGS, HOSTILE_GOAL } from './support/dashboard-scenarios';
import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('compare');
const failing = `failing ${project}`;
const passing = `passing ${project}`;
const hostileA = `run/<b>?#% a ${project}`;
const hostileB = `run/<b>?#% b ${project}`;
const HOSTILE_ACTION = '<img src=z onerror=alert(7)>';

test.beforeAll(async ({ baseURL }) => {
  const key = await createProjectKey(project);
  const sender = createSender({ url: baseURL ?? '', key, gzip: true });
  const t = Date.now() - 3600_000;
  emitRun(sender.tracer, fixedRestart({ runId: passing, startMs: t }));
  emitRun(sender.tracer, restartLoop({ runId: failing, startMs: t + 60_000 }));
  for (const [runId, k] of [
    [hostileA, 0],
    [hostileB, 1],
  ] as const) {
    emitRun(sender.tracer, {
      goal: HOSTILE_GOAL,
      agent: '<i>agent</i>',
      runId,
      startMs: t + 120_000 + k * 1000,
      steps: [
        { action: HOSTILE_ACTION, args: HOSTILE_ARGS, state: { ok: k }, costUsd: 0.01 },
        { action: 'run_shell', args: { cmd: 'true' }, state: { ok: true }, costUsd: 0.01 },
      ],
    });
  }
  await sender.shutdown();
  await waitForRuns(baseURL ?? '', key, 4);
});

const comparePath = (a: string, b: string) =>
  `/runs/compare?${new URLSearchParams({ a, b, project })}`;

test('from a failing run, “compare with the last good run” shows where they parted', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/runs/${encodeURIComponent(failing)}?project=${project}`);
  await page.getByRole('link', { name: 'Compare with the last good run' }).click();
  await expect(page).toHaveURL(/\/runs\/compare\?/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Compare two runs');
  await expect(page.getByRole('region', { name: 'Run A' })).toContainText(failing);
  await expect(page.getByRole('region', { name: 'Run B' })).toContainText(passing);
  await expect(page.getByRole('region', { name: 'Run B' })).toContainText('verified');
  const grid = page.getByRole('grid', { name: 'Aligned steps' });
  const rows = grid.getByRole('row');
  // The header, then: same, only B (the config fix), same restart, two more restarts, only B.
  await expect(rows).toHaveCount(7);
  await expect(rows.nth(1)).toHaveAttribute('data-kind', 'same');
  await expect(rows.nth(2)).toHaveAttribute('data-kind', 'only_b');
  await expect(rows.nth(2)).toHaveAttribute('data-divergence', '');
  await expect(rows.nth(2)).toContainText('update_config');
  await expect(rows.nth(4)).toHaveAttribute('data-kind', 'only_a');
  await expect(
    page.getByRole('img', { name: /Both runs on one alignment of 6 rows/ }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Run A' })).toContainText(
    'first loop signal: step 3',
  );
  await page.getByRole('button', { name: /Go to the first divergence/ }).click();
  await expect(page).toHaveURL(/row=2/);
  await expect(grid.getByRole('row', { selected: true })).toHaveAttribute('aria-rowindex', '3');
  await page.keyboard.press('j');
  await expect(page).toHaveURL(/row=3/);
  await keepScreen(page, testInfo, 'compare-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keepScreen(page, testInfo, 'compare-1280-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await keepScreen(page, testInfo, 'compare-390-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await keepScreen(page, testInfo, 'compare-390-light');
});

test('“compare with…” takes any run id; a run the project lacks is a 404 that names it', async ({
  page,
}) => {
  await page.goto(`/runs/${encodeURIComponent(passing)}?project=${project}`);
  // The passing run is the earliest: nothing good came before it.
  await expect(page.getByText('No earlier verified run of this agent and goal')).toBeVisible();
  await page.getByLabel('Compare with…').fill(failing);
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByRole('region', { name: 'Run A' })).toContainText(passing);
  await expect(page.getByRole('region', { name: 'Run B' })).toContainText(failing);
  const response = await page.goto(comparePath(failing, 'no-such-run'));
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cannot compare these runs');
  const alert = page.locator('.notice[role="alert"]');
  await expect(alert).toContainText('no-such-run');
  const missing = await page.goto(
    `/runs/compare?a=${encodeURIComponent(failing)}&project=${project}`,
  );
  expect(missing?.status()).toBe(404);
  await expect(alert).toContainText('name the run to compare with');
});

test('hostile text in goals, agents, actions and run ids stays text on the compare page', async ({
  page,
}, testInfo) => {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.goto(comparePath(hostileA, hostileB));
  await expect(page.getByRole('region', { name: 'Run A' })).toContainText(HOSTILE_GOAL);
  await expect(page.getByRole('region', { name: 'Run A' })).toContainText('<i>agent</i>');
  await expect(page.getByRole('region', { name: 'Run B' })).toContainText(hostileB);
  const grid = page.getByRole('grid', { name: 'Aligned steps' });
  await expect(grid.getByRole('row').nth(1)).toContainText(HOSTILE_ACTION);
  await expect(grid.getByRole('row').nth(1)).toHaveAttribute('data-kind', 'changed');
  await expect(page.locator('img[src="z"], img[src="x"], i')).toHaveCount(0);
  await keepScreen(page, testInfo, 'compare-hostile');
  expect(dialogs).toEqual([]);
});

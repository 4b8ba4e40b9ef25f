import { createSender } from './support/otel';
import { emitRun, restartLoop } from './support/scenarios';
import type { RunSpec } from './support/scenarios';
import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('patterns');
const HOSTILE_ACTION = '<img src=p onerror=alert(8)>';

/** A loop of the hostile action: the same call again with nothing changed. */
function hostileLoop(runId: string, startMs: number): RunSpec {
  return {
    goal: '<script>alert(9)</script> loop',
    agent: '<b>agent</b>',
    runId,
    startMs,
    steps: [0, 1, 2].map(() => ({
      action: HOSTILE_ACTION,
      args: { q: '<i>x</i>' },
      result: 'same',
      costUsd: 0.01,
    })),
    end: { termination: { kind: 'no_progress', signal: 'repeated_call', step: 2 } },
  };
}

test.beforeAll(async ({ baseURL }) => {
  const key = await createProjectKey(project);
  const sender = createSender({ url: baseURL ?? '', key, gzip: true });
  const t = Date.now() - 3 * 3600_000;
  for (const k of [0, 1, 2]) {
    emitRun(
      sender.tracer,
      restartLoop({ runId: `restart-${k}-${project}`, startMs: t + k * 60_000 }),
    );
  }
  emitRun(sender.tracer, hostileLoop(`hostile-${project}`, t + 300_000));
  await sender.shutdown();
  await waitForRuns(baseURL ?? '', key, 4);
});

test('the home page names the costliest loop; the patterns page lists it and opens its runs', async ({
  page,
}, testInfo) => {
  await page.goto(`/?project=${project}`);
  const top = page.getByRole('region', { name: 'Costliest loops' });
  await expect(top.getByRole('listitem').first()).toContainText('restart_service');
  await expect(top.getByRole('listitem').first()).toContainText('3 runs');
  // Each loop says its kind, so two loops of one call read apart.
  await expect(top.getByRole('listitem').first()).toContainText('repeat · ');
  await top.getByRole('link', { name: 'All loop patterns →' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Loop patterns');
  // A section of its own in the main navigation, marked as the page one is on.
  const main = page.getByRole('navigation', { name: 'Main' });
  await expect(main.getByRole('link', { name: 'Patterns' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const table = page.getByRole('table', { name: 'Patterns' });
  const first = table.getByRole('row').nth(1);
  await expect(first).toContainText('restart_service');
  await expect(first).toContainText('repeat');
  await expect(first.getByRole('cell').nth(3)).toHaveText('3');
  await first.getByRole('link').click();
  await expect(page).toHaveURL(/signature=repeat/);
  const runs = page.getByRole('region', { name: 'Runs of the pattern' });
  await expect(runs.getByRole('listitem')).toHaveCount(3);
  // Runs of one goal read apart by their ids.
  await expect(runs.getByRole('listitem').first()).toContainText(`restart-2-${project}`);
  await keepScreen(page, testInfo, 'patterns-1280-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keepScreen(page, testInfo, 'patterns-1280-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone what the page is for, each loop's runs and wasted spend, is on the screen.
  await expect(first.getByRole('cell').filter({ hasText: '$' })).toBeInViewport({ ratio: 1 });
  await expect(first.getByRole('cell').first()).toContainText('repeat · ops-agent');
  await keepScreen(page, testInfo, 'patterns-390-dark');
  await runs.getByRole('listitem').first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/runs/restart-2-${project}`));
  // From a run that looped, the same loop in other runs.
  await page.getByRole('link', { name: 'The same loop in other runs' }).click();
  await expect(page).toHaveURL(/\/patterns\?.*kind=repeat/);
  await expect(page.getByRole('table', { name: 'Patterns' }).getByRole('row')).toHaveCount(2);
});

test('filters live in the URL, and hostile text stays text', async ({ page }, testInfo) => {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.goto(`/patterns?project=${project}`);
  await page.getByLabel('Agent').fill('<b>agent</b>');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/agent=%3Cb%3Eagent/);
  const table = page.getByRole('table', { name: 'Patterns' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText(HOSTILE_ACTION);
  await expect(table.getByRole('row').nth(1)).toContainText('<b>agent</b>');
  await table.getByRole('row').nth(1).getByRole('link').click();
  await expect(page.getByRole('region', { name: 'Runs of the pattern' })).toContainText(
    '<script>alert(9)</script> loop',
  );
  await expect(page.locator('main img, main b, main i')).toHaveCount(0);
  await keepScreen(page, testInfo, 'patterns-hostile');
  const bad = await page.goto(`/patterns?project=${project}&kind=spin`);
  expect(bad?.status()).toBe(404);
  expect(dialogs).toEqual([]);
});

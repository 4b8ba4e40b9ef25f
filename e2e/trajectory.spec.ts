import { createSender } from './support/otel';
import { emitRun, oscillation } from './support/scenarios';
import {
  emitFabricatedUnpriced,
  HOSTILE_ARGS,
  HOSTILE_GOAL,
  hostileRun,
} from './support/dashboard-scenarios';
import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('traj');
const hostileId = `run/<b>?#% ü ${project}`;
let oscillating = '';
let fabricated = '';
let tests = '';
let long = '';

test.beforeAll(async ({ baseURL }) => {
  const key = await createProjectKey(project);
  const sender = createSender({ url: baseURL ?? '', key, gzip: true });
  const t = Date.now() - 3600_000;
  oscillating = emitRun(sender.tracer, oscillation(['A', 'B', 'A', 'B'], { startMs: t }));
  emitRun(sender.tracer, hostileRun(hostileId, t + 60_000));
  fabricated = emitFabricatedUnpriced(sender.tracer, t + 120_000);
  // Failing tests going down, as the harness names and reads them.
  tests = emitRun(sender.tracer, {
    goal: 'Make the suite green',
    agent: 'coder',
    startMs: t + 180_000,
    progressName: 'failing tests',
    progressDirection: 'down',
    steps: [7, 6, 5, 4].map((failing, k) => ({
      action: `fix_${k}`,
      args: { k },
      state: { failing },
      progress: failing,
      costUsd: 0.01,
    })),
  });
  long = emitRun(sender.tracer, {
    goal: 'Walk sixty steps',
    agent: 'walker',
    startMs: t + 240_000,
    stepMs: 100,
    steps: Array.from({ length: 60 }, (_, k) => ({
      action: `walk_${k}`,
      args: { k },
      state: { at: k },
      result: `step ${k} ${'done '.repeat(40)}`,
      costUsd: 0.001,
    })),
  });
  await sender.shutdown();
  await waitForRuns(baseURL ?? '', key, 5);
});

const runPath = (id: string) => `/runs/${encodeURIComponent(id)}?project=${project}`;

test('an oscillating run reads A, B, A, B with arcs back to the revisited steps', async ({
  page,
}, testInfo) => {
  await page.goto(`/?project=${project}`);
  await page.getByRole('link', { name: 'Make the failing test pass' }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${oscillating}`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Make the failing test pass');
  await expect(page.getByLabel('States sequence')).toHaveText('A B A B');
  const lanes = page.getByRole('group', { name: 'Trajectory lanes' });
  const states = lanes.getByRole('list', { name: 'State lane' }).getByRole('listitem');
  await expect(states).toHaveText(['A', 'B', 'A', 'B']);
  await expect(states.nth(2)).toHaveAccessibleName('Step 3: state A, returns to step 1');
  await expect(
    lanes.getByRole('img', { name: 'Step 3 returns to the state of step 1' }),
  ).toBeVisible();
  await expect(
    lanes.getByRole('img', { name: 'Step 4 returns to the state of step 2' }),
  ).toBeVisible();
  await expect(page.getByRole('row', { name: /^3 C apply_fix_A/ })).toContainText('A/B/A ← 1');
  await keepScreen(page, testInfo, 'trajectory-oscillation');
  await page.emulateMedia({ colorScheme: 'dark' });
  await keepScreen(page, testInfo, 'trajectory-oscillation-dark');
});

test('j/k and the arrow keys step through the run; the step stays in the URL', async ({
  page,
}, testInfo) => {
  await page.goto(runPath(oscillating));
  const grid = page.getByRole('grid', { name: 'Steps' });
  const selected = grid.getByRole('row', { selected: true });
  const navigations: string[] = [];
  page.on('request', (r) => {
    const headers = r.headers();
    const prefetch = headers['next-router-prefetch'] !== undefined;
    if (r.resourceType() === 'document' || (headers.rsc && !prefetch)) navigations.push(r.url());
  });
  await grid.getByRole('row', { name: /^1 / }).click();
  await expect(page).toHaveURL(/step=1/);
  await page.keyboard.press('j');
  await expect(selected).toHaveAttribute('aria-rowindex', '3');
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/step=3/);
  await page.keyboard.press('k');
  await expect(page).toHaveURL(/step=2/);
  await page.keyboard.press('End');
  await expect(page).toHaveURL(/step=4/);
  await expect(page.getByRole('complementary', { name: 'Step 4 detail' })).toContainText(
    '"attempt": 4',
  );
  expect(navigations).toEqual([]);
  await page.reload();
  await expect(selected).toHaveAttribute('aria-rowindex', '5');
  // The detail's span is fetched by the page's script: once it shows, the keys are listened to
  // (the server-rendered row and panel are there before that).
  await expect(page.getByRole('complementary', { name: 'Step 4 detail' })).toContainText(
    '"attempt": 4',
  );
  await page.keyboard.press('k');
  await expect(page).toHaveURL(/step=3/);
  await expect(page.getByRole('complementary', { name: 'Step 3 detail' })).toContainText(
    '"attempt": 3',
  );
  await keepScreen(page, testInfo, 'trajectory-keyboard');
});

test('hostile text in the goal, arguments and result renders as text', async ({
  page,
}, testInfo) => {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await page.goto(`/?project=${project}`);
  await page.getByRole('link', { name: HOSTILE_GOAL }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HOSTILE_GOAL);
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(hostileId);
  await page.getByRole('grid', { name: 'Steps' }).getByRole('row', { name: /^1 / }).click();
  const detail = page.getByRole('complementary', { name: 'Step 1 detail' });
  await expect(detail).toContainText(`"cmd": "${HOSTILE_ARGS.cmd}"`);
  await expect(detail).toContainText('<b onmouseover=alert(5)>done</b>');
  await expect(detail.getByRole('row', { name: /loop\.action\.args/ })).toContainText(
    HOSTILE_ARGS.note,
  );
  await expect(page.locator('img')).toHaveCount(0);
  await expect(page.locator('b[onmouseover]')).toHaveCount(0);
  const injected = await page.evaluate(
    () => [...document.scripts].filter((s) => /^\s*alert\(/.test(s.textContent ?? '')).length,
  );
  expect(injected).toBe(0);
  expect(dialogs).toEqual([]);
  await keepScreen(page, testInfo, 'trajectory-hostile');
});

test('the header warns of a fabricated success and of unpriced spend; field verdicts show', async ({
  page,
}, testInfo) => {
  await page.goto(`${runPath(fabricated)}&step=1`);
  await expect(page.getByRole('alert').filter({ hasText: 'Fabricated success.' })).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'Spend is incomplete' })).toContainText(
    'mystery-model-9',
  );
  await expect(page.getByRole('region', { name: 'Exit' })).toContainText('goal_met');
  const detail = page.getByRole('complementary', { name: 'Step 1 detail' });
  await expect(detail.getByRole('listitem')).toHaveText(['✓ email', '✗ name']);
  await expect(detail).toContainText('1,200 in / 300 out tokens');
  await keepScreen(page, testInfo, 'trajectory-fabricated');
});

test('an unknown run id is a clear not-found; a step span is read only within its project', async ({
  page,
  request,
}) => {
  await page.goto(runPath('no such run'));
  await expect(page.getByRole('heading', { name: 'No such run' })).toBeVisible();
  const span = (id: string, ordinal: number, name: string) =>
    request.get(`/runs/${encodeURIComponent(id)}/steps/${ordinal}/span?project=${name}`);
  expect((await span(oscillating, 1, project)).status()).toBe(200);
  expect((await span(oscillating, 1, 'default')).status()).toBe(404);
  expect((await span(oscillating, 9, project)).status()).toBe(404);
  expect((await span(oscillating, 0, project)).status()).toBe(400);
  const hostile = await span(hostileId, 1, project);
  expect(await hostile.json()).toMatchObject({ action: 'run_shell', index: 1 });
});

test('the progress lane names its metric, has an axis and says which way is better', async ({
  page,
}, testInfo) => {
  await page.goto(runPath(tests));
  const lanes = page.getByRole('group', { name: 'Trajectory lanes' });
  const lane = lanes.getByRole('img', {
    name: 'Progress (failing tests): 7 at step 1 to 4 at step 4, lower is better',
  });
  await expect(lane).toBeVisible();
  await expect(lane.locator('text')).toHaveText(['failing testslower is better', '7', '4']);
  await expect(lanes).not.toContainText('better ↑');
  // Higher values up: the line falls as the failing tests do.
  const ys = await lane
    .locator('path')
    .last()
    .evaluate((el) =>
      [...(el.getAttribute('d') ?? '').matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => Number(m[1])),
    );
  expect(ys).toHaveLength(4);
  expect(ys.every((y, k) => k === 0 || y > ys[k - 1]!)).toBe(true);
  await keepScreen(page, testInfo, 'trajectory-progress-named');
  // Without a name the lane says what it reads.
  await page.goto(runPath(oscillating));
  await expect(
    page.getByRole('img', { name: /^Progress \(loop\.progress\): not reported$/ }),
  ).toHaveCount(1);
});

test('a link to a step opens on it; its detail is reached and read with the keyboard', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${runPath(long)}&step=45`);
  const grid = page.getByRole('grid', { name: 'Steps' });
  const row = grid.getByRole('row', { selected: true });
  await expect(row).toHaveAttribute('aria-rowindex', '46');
  await expect(row).toBeInViewport();
  await expect(grid).toBeFocused();
  await page.keyboard.press('j');
  await expect(page).toHaveURL(/step=46/);
  const detail = page.getByRole('complementary', { name: 'Step 46 detail' });
  await expect(detail).toContainText('"k": 45');
  await page.keyboard.press('Tab');
  await expect(detail).toBeFocused();
  const scrolled = () => detail.evaluate((el) => el.scrollTop);
  expect(await scrolled()).toBe(0);
  await page.keyboard.press('PageDown');
  await expect.poll(scrolled).toBeGreaterThan(0);
  await page.keyboard.press('End');
  await expect(detail.getByText('Resource (', { exact: false })).toBeInViewport();
  await keepScreen(page, testInfo, 'trajectory-step-link');
});

import { writeFile } from 'node:fs/promises';
import { createSender } from './support/otel';
import { emitRun } from './support/scenarios';
import { longTrajectory } from './support/dashboard-scenarios';
import { createProjectKey, uniqueName } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const STEPS = 10_000;
const project = uniqueName('long');

test('a 10,000-step run opens and scrolls without freezing; only the rows in view are mounted', async ({
  page,
  baseURL,
  request,
}, testInfo) => {
  test.setTimeout(300_000);
  const key = await createProjectKey(project);
  const sender = createSender({ url: baseURL ?? '', key, gzip: true });
  const runId = emitRun(sender.tracer, longTrajectory(STEPS, Date.now() - 3600_000));
  await sender.shutdown();
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/v1/runs/${runId}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        return response.ok()
          ? ((await response.json()) as { run: { stepCount: number } }).run.stepCount
          : 0;
      },
      { timeout: 120_000 },
    )
    .toBe(STEPS);

  // Long tasks (main thread blocked > 50 ms) from the first byte on.
  await page.addInitScript(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  // Span trees load for the selected step only, never for the run's whole trace unasked.
  const treeRequests: string[] = [];
  page.on('request', (r) => {
    if (/\/spans$/.test(new URL(r.url()).pathname)) treeRequests.push(r.url());
  });
  const started = Date.now();
  const response = await page.goto(`/runs/${runId}?project=${project}`);
  const html = (await response?.text()) ?? '';
  const grid = page.getByRole('grid', { name: 'Steps' });
  await expect(grid.getByRole('row', { name: /^1 / })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Trajectory lanes' })).toBeVisible();
  const openMs = Date.now() - started;

  const mounted = async () => {
    const rows = await grid.getByRole('row').count();
    const viewport = await grid.evaluate((el) => {
      const scroller = el.querySelector('[tabindex="-1"]') as HTMLElement;
      const row = el.querySelector('[aria-rowindex="2"]') as HTMLElement | null;
      return { height: scroller.clientHeight, row: row?.offsetHeight ?? 30 };
    });
    const visible = Math.ceil(viewport.height / viewport.row);
    return { body: rows - 1, visible };
  };
  const atTop = await mounted();
  expect(atTop.body).toBeLessThanOrEqual(2 * atTop.visible);

  await grid.getByRole('row', { name: /^1 / }).click();
  await page.keyboard.press('End');
  await expect(page).toHaveURL(/step=10000/);
  await expect(grid.getByRole('row', { selected: true })).toHaveAttribute(
    'aria-rowindex',
    String(STEPS + 1),
  );
  await page.keyboard.press('PageUp');
  await page.keyboard.press('k');
  const atEnd = await mounted();
  expect(atEnd.body).toBeLessThanOrEqual(2 * atEnd.visible);
  await grid.locator('[tabindex="-1"]').evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
  await expect(grid.getByRole('row', { name: /^5000 / })).toBeVisible();
  const middle = await mounted();
  expect(middle.body).toBeLessThanOrEqual(2 * middle.visible);

  const tree = page.getByRole('region', { name: /^Spans of step/ });
  await expect(tree.getByRole('button').first()).toBeVisible();
  expect(treeRequests.length).toBeGreaterThan(0);
  expect(treeRequests.every((url) => /\/steps\/\d+\/spans/.test(url))).toBe(true);
  // Four selections (a click, End, PageUp, k): each asks for its own tree once at most.
  expect(treeRequests.length).toBeLessThanOrEqual(4);

  const longTasks = await page.evaluate(
    () => (window as unknown as { longTasks: number[] }).longTasks,
  );
  const longest = Math.max(0, ...longTasks);
  const timings = {
    openMs,
    htmlBytes: html.length,
    longTasks,
    treeRequests: treeRequests.length,
    mounted: { atTop, atEnd, middle },
  };
  await writeFile(testInfo.outputPath('timings.json'), JSON.stringify(timings, null, 2));
  await testInfo.attach('timings', { path: testInfo.outputPath('timings.json') });
  // A freeze, not a speed goal: 1,611 ms was seen once under CI's own load on two cores. A page
  // that mounted every row is caught by the mounted counts above, not by this bound.
  expect(longest).toBeLessThan(2500);
  // The page ships the steps' lanes, never their raw attributes (those load one step at a time).
  expect(html).not.toContain('loop.action.args');
  expect(html.length).toBeLessThan(2_000_000);
  await keepScreen(page, testInfo, 'trajectory-10000-steps');
});

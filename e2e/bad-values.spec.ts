import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import { LOOKS, expectNoSidewaysScroll, look } from './support/layout';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('edges');
const traceId = 'bad5'.repeat(8);
// Ids and names of 3,000 characters without a break: past what an index entry holds, and past
// any screen's width (trajectory/key-text.ts keeps 512 bytes of each).
const unbroken = (seed: string) => seed.repeat(Math.ceil(3000 / seed.length)).slice(0, 3000);
const LONG_RUN = unbroken('run-id_7f3c2a91-');
const LONG_AGENT = unbroken('Agent_named_at_length-');
const LONG_SESSION = unbroken('session:8b1e-');

test.beforeAll(async ({ baseURL }) => {
  const key = await createProjectKey(project);
  const start = Date.now() - 600_000;
  const ns = (ms: number) => `${ms}000000`;
  const spans = [
    {
      traceId,
      spanId: '00000000000000a1',
      name: 'agent',
      startTimeUnixNano: ns(start),
      endTimeUnixNano: ns(start + 5000),
      attributes: [
        { key: 'loop.goal', value: { stringValue: 'Reconcile the invoices' } },
        { key: 'loop.exit.reason', value: { stringValue: 'goal_met' } },
      ],
    },
    {
      traceId,
      spanId: '00000000000000a2',
      parentSpanId: '00000000000000a1',
      name: 'step one',
      startTimeUnixNano: ns(start + 100),
      endTimeUnixNano: ns(start + 50),
      attributes: [
        { key: 'loop.step', value: { intValue: 3_000_000_000 } },
        { key: 'loop.action', value: { stringValue: 'fetch_invoices' } },
        { key: 'loop.cost_usd', value: { doubleValue: -5 } },
      ],
    },
    {
      traceId: 'face'.repeat(8),
      spanId: '00000000000000b1',
      name: 'agent',
      startTimeUnixNano: ns(start + 1000),
      endTimeUnixNano: ns(start + 4000),
      attributes: [
        { key: 'loop.run.id', value: { stringValue: LONG_RUN } },
        { key: 'loop.agent', value: { stringValue: LONG_AGENT } },
        { key: 'loop.session.id', value: { stringValue: LONG_SESSION } },
        { key: 'loop.goal', value: { stringValue: 'Rename every file of the archive' } },
        { key: 'loop.exit.reason', value: { stringValue: 'goal_met' } },
      ],
    },
    {
      traceId: 'face'.repeat(8),
      spanId: '00000000000000b2',
      parentSpanId: '00000000000000b1',
      name: 'step',
      startTimeUnixNano: ns(start + 1100),
      endTimeUnixNano: ns(start + 1900),
      attributes: [
        { key: 'loop.step', value: { intValue: 1 } },
        { key: 'loop.action', value: { stringValue: 'rename_file' } },
      ],
    },
  ];
  const response = await fetch(`${baseURL}/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }),
  });
  expect(response.status).toBe(200);
  await waitForRuns(baseURL ?? '', key, 2);
});

test('a run whose spans sent values past their edge opens, and says which values it left out', async ({
  page,
}, testInfo) => {
  await page.goto(`/runs/${traceId}?project=${project}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reconcile the invoices');
  const note = page.getByRole('note').filter({ hasText: 'could not be used as sent' });
  await expect(note).toContainText('3 values');
  await note.getByText('could not be used as sent').click();
  await expect(note.getByRole('listitem')).toHaveText([
    /endTimeUnixNano = 50 ms before the start on span step one .*stored as ending at its start/,
    /loop\.step = 3000000000 on span step one .*too large: stored as unknown/,
    /loop\.cost_usd = -5 .*below 0: stored as unknown/,
  ]);
  await keepScreen(page, testInfo, 'run-value-problems');
});

test('a run whose id, agent and session are 3,000 characters opens by them, at every size', async ({
  page,
}, testInfo) => {
  const pages = [
    `/?project=${project}`,
    `/runs/${encodeURIComponent(LONG_RUN)}?project=${project}`,
    `/sessions/${encodeURIComponent(LONG_SESSION)}?project=${project}`,
    `/sessions?project=${project}`,
    `/reports/weekly?project=${project}&groupBy=agent`,
    `/patterns?project=${project}`,
  ];
  for (const l of LOOKS) {
    await look(page, l);
    for (const path of pages) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page);
    }
    await keepScreen(page, testInfo, `long-names-sessions-${l.name}`);
  }
  await page.goto(`/runs/${encodeURIComponent(LONG_RUN)}?project=${project}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Rename every file of the archive',
  );
  // The kept 512 bytes show in two lines, the whole on hover.
  const agent = page.getByText(`agent ${LONG_AGENT.slice(0, 200)}`);
  await expect(agent).toBeVisible();
  await expect(agent).toHaveAttribute('title', new RegExp(`^${LONG_AGENT.slice(0, 200)}`));
  expect((await agent.boundingBox())?.height).toBeLessThan(60);
  await keepScreen(page, testInfo, 'long-names-run');
  // The weekly report keeps the long name to one line in its table and its legend.
  await look(page, LOOKS[0]!);
  await page.goto(`/reports/weekly?project=${project}&groupBy=agent`);
  const cell = page.getByRole('cell', { name: /^Agent_named_at_length/ }).first();
  await expect(cell).toBeVisible();
  expect((await cell.boundingBox())?.width).toBeLessThan(600);
  const legend = page.locator('.recharts-legend-item-text .one-line[title^="Agent_named"]');
  await expect(legend).toHaveText(/^Agent_named_at_length/);
  expect((await legend.boundingBox())?.height).toBeLessThan(30);
  await keepScreen(page, testInfo, 'long-names-weekly');
  await page.goto(`/sessions/${encodeURIComponent(LONG_SESSION)}?project=${project}`);
  await expect(page.getByRole('link', { name: 'Rename every file of the archive' })).toBeVisible();
});

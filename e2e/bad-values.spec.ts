import { createProjectKey, uniqueName, waitForRuns } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('edges');
const traceId = 'bad5'.repeat(8);

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
  ];
  const response = await fetch(`${baseURL}/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }),
  });
  expect(response.status).toBe(200);
  await waitForRuns(baseURL ?? '', key, 1);
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

// Alerts in a browser: a rule made on the page, a run sent through /v1/traces that trips it, the
// webhook received by a real HTTP server on 127.0.0.1, and the delivery in the page's log.
import { startReceiver } from './support/webhook-receiver';
import type { Receiver } from './support/webhook-receiver';
import { runBody } from './support/alert-runs';
import { LOOKS, expectNoSidewaysScroll, look } from './support/layout';
import { createProjectKey, uniqueName } from './support/projects';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const project = uniqueName('alerts');
let key = '';
let receiver: Receiver;

test.beforeAll(async () => {
  key = await createProjectKey(project);
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

test('a rule created on the page fires on a run sent through /v1/traces and its delivery shows in the log', async ({
  page,
  baseURL,
}, testInfo) => {
  await page.goto(`/alerts?project=${project}`);
  await expect(page.getByRole('heading', { name: 'Alerts' })).toBeVisible();
  await expect(page.getByText('No rule yet')).toBeVisible();

  // A bad URL is answered in words, and nothing is created.
  const form = page.getByRole('form', { name: 'New rule' });
  await form.getByLabel('Name').fill('Fabricated successes');
  await form.getByLabel('When').selectOption('fabricated_success');
  await form.getByLabel('Webhook URL').fill('ftp://example.com/hook');
  await form.getByLabel('Webhook URL').evaluate((el: HTMLInputElement) => (el.type = 'text'));
  await form.getByRole('button', { name: 'Create rule' }).click();
  await expect(form.getByRole('alert')).toContainText('webhook.url: must be an http');

  await form.getByLabel('Webhook URL').fill(receiver.url);
  await form.getByLabel('Signing secret (optional)').fill('a-secret-for-the-e2e');
  await form.getByRole('button', { name: 'Create rule' }).click();
  const rule = page.locator('[data-rule="Fabricated successes"]');
  await expect(rule).toContainText('enabled');
  await expect(rule).toContainText('a run claims success the environment contradicted');
  await expect(rule).toContainText(', signed');
  await expect(page.locator('body')).not.toContainText('a-secret-for-the-e2e');

  const traceId = 'e2ea1e47000000000000000000000001';
  const sent = await fetch(`${baseURL}/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: runBody({
      traceId,
      agent: 'coder',
      exitReason: 'goal_met',
      steps: [{ action: 'run_tests', state: 'a', verdict: 'fail', verdictSource: 'environment' }],
    }),
  });
  expect(sent.status).toBe(200);
  await receiver.waitFor(1, 30_000);
  const event = JSON.parse(receiver.received[0]!.body) as { runId: string; link: string };
  expect(event.runId).toBe(traceId);
  expect(event.link).toBe(`${baseURL}/runs/${traceId}?project=${project}`);

  await expect(async () => {
    await page.reload();
    const row = page.locator('tbody tr').filter({ hasText: traceId });
    await expect(row).toContainText('delivered (200)', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await page.locator('tbody tr').filter({ hasText: traceId }).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/runs/${traceId}`));

  // The test button: one more event through the outbox, delivered like the first.
  await page.goto(`/alerts?project=${project}`);
  await rule.getByRole('button', { name: 'Send a test event' }).click();
  // The log follows the delivery by itself: no reload.
  await expect(page.getByText('delivered (200)')).toHaveCount(2, { timeout: 20_000 });
  await receiver.waitFor(2, 30_000);
  expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({
    runId: null,
    summary: 'Fabricated successes: a test event from Loopscope',
  });

  // Disabled, the rule fires nothing on the next such run.
  await rule.getByRole('button', { name: 'Disable' }).click();
  await expect(rule).toContainText('disabled');

  await expect(async () => {
    await page.reload();
    await expect(page.locator('tbody tr')).toHaveCount(2, { timeout: 1000 });
    await expect(page.getByText('delivered (200)')).toHaveCount(2, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  for (const l of LOOKS) {
    await look(page, l);
    await expectNoSidewaysScroll(page);
    await keepScreen(page, testInfo, `alerts-${l.name}`);
  }
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme });
    await expectNoSidewaysScroll(page);
    await keepScreen(page, testInfo, `alerts-1280-${colorScheme}`);
  }
  // The edit form shows the rule's values and never its secret.
  await look(page, LOOKS[0]!);
  await rule.getByRole('link', { name: 'Edit' }).click();
  const edit = page.getByRole('form', { name: 'Edit rule' });
  await expect(edit.getByLabel('Name')).toHaveValue('Fabricated successes');
  await expect(edit.getByLabel(/New signing secret/)).toHaveValue('');
  await keepScreen(page, testInfo, 'alerts-edit');
});
